import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  MESSAGES,
  PROJECT_PERMISSIONS,
  type MemberRole,
  type ProjectPermission,
  type ProjectTeam,
  type TeamInvitation,
  type TeamJoinRequest,
  type TeamMember,
} from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formToast, showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { formatNumber } from '../../lib/format';
import { PERMISSION_LABELS, ROLE_LABELS, assignableRoles, canChangeMember, toggleEnabled } from '../../lib/team-rules';
import { useAuthStore } from '../../stores/auth.store';
import { useSettings } from '../../stores/settings.store';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { UserAvatar } from '../../components/user-avatar';
import { Spinner } from '../../components/spinner';
import { projectDetailKey } from '../../components/use-project-query';
import { teamKey, useTeamQuery } from './use-team-query';

const personName = (u: { first_name: string; last_name: string; username: string }) => `${u.first_name} ${u.last_name}`.trim() || u.username;

type Pending =
  | { kind: 'remove'; member: TeamMember }
  | { kind: 'leave' }
  | { kind: 'handover'; member: TeamMember }
  | { kind: 'decline'; request: TeamJoinRequest }
  | null;

/**
 * The Team card of the project page: the owner and members with their roles
 * and permission toggles, and for those who manage the team an invitation
 * form, the invitations waiting for an answer and the join requests (which
 * arrive live). Removing, leaving and handing over ask first.
 */
export function TeamCard({ projectId }: { projectId: number }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const selfId = useAuthStore((s) => s.user?.id ?? 0);
  const queryClient = useQueryClient();
  const query = useTeamQuery(projectId);
  const team = query.data ?? null;
  const error = team ? null : query.isError ? query.error.message : null;
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending>(null);

  const reload = () => queryClient.invalidateQueries({ queryKey: teamKey(projectId) });

  /** Runs a change, toasts its outcome and reloads the team. */
  const act = async (run: () => Promise<unknown>, success: string, fallbackError: string) => {
    setBusy(true);
    try {
      await run();
      formToast('success', t(success));
      await reload();
      return true;
    } catch (err) {
      formToast('error', t((err as Error).message || fallbackError));
      await reload();
      return false;
    } finally {
      setBusy(false);
    }
  };

  const setPermission = (m: TeamMember, p: ProjectPermission, value: boolean) => {
    // The switch moves at once; a refusal puts it back with the reload.
    queryClient.setQueryData<ProjectTeam>(teamKey(projectId), (tm) => tm && { ...tm, members: tm.members.map((x) => (x.user.id === m.user.id ? { ...x, permissions: { ...x.permissions, [p]: value } } : x)) });
    return act(() => api.put('/team-members/update-permissions', { id_project: projectId, id_user: m.user.id, permissions: { [p]: value } }, tk('Failed to update the permissions.')), tk('Permissions updated.'), tk('Failed to update the permissions.'));
  };
  const setRole = (m: TeamMember, role: MemberRole) =>
    act(() => api.put('/team-members/update-permissions', { id_project: projectId, id_user: m.user.id, role }, tk('Failed to update the permissions.')), tk('Role changed.'), tk('Failed to update the permissions.'));
  const cancelInvitation = (inv: TeamInvitation) =>
    act(() => api.post('/team-members/cancel-invitation', { id_project: projectId, id_user: inv.id_user }, MESSAGES.cancelInvitationFailed), tk('Invitation cancelled.'), MESSAGES.cancelInvitationFailed);
  const accept = (r: TeamJoinRequest) =>
    act(() => api.post('/join-requests/accept', { id_project: projectId, id_user: r.user.id }, tk('Failed to accept the request.')), tk('Join request accepted.'), tk('Failed to accept the request.'));

  const confirm = async () => {
    if (!pending) return;
    let done = false;
    if (pending.kind === 'remove') {
      done = await act(() => api.post('/team-members/remove-team-member', { id_member: pending.member.id_member }, tk('Failed to remove the member.')), tk('The member was removed from the project.'), tk('Failed to remove the member.'));
    } else if (pending.kind === 'decline') {
      done = await act(() => api.post('/join-requests/decline', { id_project: projectId, id_user: pending.request.user.id }, tk('Failed to decline the request.')), tk('Join request declined.'), tk('Failed to decline the request.'));
    } else if (pending.kind === 'handover') {
      done = await act(() => api.post('/team-members/transfer-ownership', { id_project: projectId, id_user: pending.member.user.id }, tk('Failed to hand the project over.')), tk('The project was handed over.'), tk('Failed to hand the project over.'));
      // The user's own rights on the project change with it.
      if (done) void queryClient.invalidateQueries({ queryKey: projectDetailKey(projectId) });
    } else {
      setBusy(true);
      try {
        await api.post('/team-members/leave-project', { id_project: projectId }, tk('Failed to leave the project.'));
        formToast('success', t('You left the project.'));
        setPending(null);
        navigate('/projects');
        return;
      } catch (err) {
        formToast('error', t((err as Error).message));
      } finally {
        setBusy(false);
      }
    }
    if (done) setPending(null);
  };

  const header = (
    <div className="card-header bg-transparent d-flex align-items-center gap-2">
      <h2 id="team-heading" className="h6 mb-0 me-auto">
        {t('Team')}
      </h2>
      {team && <span className="badge bg-body-secondary text-body border">{t('{n} people', { count: team.members.length + 1, n: formatNumber(team.members.length + 1, i18n.language) })}</span>}
    </div>
  );

  if (!team) {
    return (
      <section className="card border-0 shadow-sm mb-3" aria-labelledby="team-heading" data-testid="team-card">
        {header}
        <div className="card-body">
          {error ? (
            <div className="alert alert-danger d-flex align-items-center gap-2 mb-0" role="alert">
              <span className="me-auto">{t(error)}</span>
              <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void query.refetch()}>
                {t('Try again')}
              </button>
            </div>
          ) : (
            <Spinner />
          )}
        </div>
      </section>
    );
  }

  const everyone = [team.owner, ...team.members];
  const dialog = dialogTexts(pending, t);

  return (
    <section className="card border-0 shadow-sm mb-3" aria-labelledby="team-heading" data-testid="team-card">
      {header}
      <ul className="list-group list-group-flush" aria-label={t('Team members')}>
        {everyone.map((m) => (
          <MemberRow
            key={m.user.id}
            member={m}
            team={team}
            selfId={selfId}
            busy={busy}
            onPermission={(p, v) => void setPermission(m, p, v)}
            onRole={(r) => void setRole(m, r)}
            onRemove={() => setPending({ kind: 'remove', member: m })}
            onHandOver={() => setPending({ kind: 'handover', member: m })}
          />
        ))}
        {team.members.length === 0 && <li className="list-group-item text-body-secondary small">{t('Nobody else is in this team yet.')}</li>}
      </ul>

      {team.can_manage_team && (
        <div className="card-body border-top">
          <InviteForm projectId={projectId} roles={assignableRoles(team)} onSent={() => void reload()} />
          <h3 className="h6 mt-3">{t('Join requests')}</h3>
          {team.join_requests.length === 0 ? (
            <p className="text-body-secondary small mb-2" data-testid="no-join-requests">
              {t('No one is asking to join.')}
            </p>
          ) : (
            <ul className="list-unstyled mb-2" data-testid="join-requests">
              {team.join_requests.map((r) => (
                <li key={r.id} className="d-flex flex-wrap align-items-center gap-2 py-1" data-testid="join-request">
                  <UserAvatar user={{ username: r.user.username, avatar: r.user.avatar_url }} size={24} />
                  <span className="me-auto text-break">{personName(r.user)}</span>
                  <button type="button" className="btn btn-sm btn-success" disabled={busy} onClick={() => void accept(r)}>
                    {t('Accept')}
                  </button>
                  <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy} onClick={() => setPending({ kind: 'decline', request: r })}>
                    {t('Decline')}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <h3 className="h6 mt-3">{t('Pending invitations')}</h3>
          {team.invitations.length === 0 ? (
            <p className="text-body-secondary small mb-0">{t('No invitation is waiting for an answer.')}</p>
          ) : (
            <ul className="list-unstyled mb-0" data-testid="pending-invitations">
              {team.invitations.map((inv) => (
                <li key={inv.id} className="d-flex flex-wrap align-items-center gap-2 py-1">
                  <span className="me-auto text-break">
                    {inv.email} <span className="badge bg-body-secondary text-body border">{t(ROLE_LABELS[inv.role])}</span>
                    {!inv.sent && <span className="badge text-bg-warning ms-1">{t('Not sent')}</span>}
                  </span>
                  <button type="button" className="btn btn-sm btn-outline-secondary" disabled={busy} onClick={() => void cancelInvitation(inv)}>
                    {t('Cancel invitation')}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      {team.can_leave && (
        <div className="card-footer bg-transparent">
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setPending({ kind: 'leave' })} disabled={busy}>
            <i className="bi bi-box-arrow-right me-1" aria-hidden="true" />
            {t('Leave project')}
          </button>
        </div>
      )}

      <ConfirmDialog
        show={pending !== null}
        title={dialog.title}
        body={dialog.body}
        confirmLabel={dialog.confirm}
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      />
    </section>
  );
}

function dialogTexts(p: Pending, t: (k: string, o?: Record<string, unknown>) => string) {
  if (!p) return { title: '', body: '', confirm: '' };
  switch (p.kind) {
    case 'remove':
      return { title: t('Remove member?'), body: t('{name} will no longer see this project.', { name: personName(p.member.user) }), confirm: t('Remove') };
    case 'decline':
      return { title: t('Decline the request?'), body: t('{name} will be told, and may ask again only after a few days.', { name: personName(p.request.user) }), confirm: t('Decline') };
    case 'handover':
      return { title: t('Hand the project over?'), body: t('{name} becomes the owner. You stay in the team as a project admin.', { name: personName(p.member.user) }), confirm: t('Hand over') };
    default:
      return { title: t('Leave the project?'), body: t('You will no longer see this project until someone invites you again.'), confirm: t('Leave project') };
  }
}

interface RowProps {
  member: TeamMember;
  team: ProjectTeam;
  selfId: number;
  busy: boolean;
  onPermission(p: ProjectPermission, value: boolean): void;
  onRole(role: MemberRole): void;
  onRemove(): void;
  onHandOver(): void;
}

function MemberRow({ member: m, team, selfId, busy, onPermission, onRole, onRemove, onHandOver }: RowProps) {
  const { t } = useTranslation();
  const id = useId();
  const changeable = canChangeMember(team, m, selfId);
  return (
    <li className="list-group-item" data-testid="team-member" data-user-id={m.user.id}>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <UserAvatar user={{ username: m.user.username, avatar: m.user.avatar_url }} size={28} />
        <div className="me-auto min-w-0">
          <div className="fw-semibold text-break">
            {personName(m.user)} {m.user.id === selfId && <span className="text-body-secondary fw-normal">({t('you')})</span>}
          </div>
          <div className="small text-body-secondary text-break">{m.user.email}</div>
        </div>
        {changeable && m.role !== 'owner' ? (
          <select
            className="form-select form-select-sm w-auto"
            aria-label={t('Role of {name}', { name: personName(m.user) })}
            value={m.role}
            disabled={busy}
            onChange={(e) => onRole(e.target.value as MemberRole)}
          >
            {assignableRoles(team).map((r) => (
              <option key={r} value={r}>
                {t(ROLE_LABELS[r])}
              </option>
            ))}
          </select>
        ) : (
          <span className="badge bg-primary-subtle text-primary-emphasis" data-testid="member-role">
            {t(ROLE_LABELS[m.role])}
          </span>
        )}
      </div>
      <div className="d-flex flex-wrap gap-3 mt-2" role="group" aria-label={t('Permissions of {name}', { name: personName(m.user) })}>
        {PROJECT_PERMISSIONS.map((p) => (
          <div className="form-check form-switch m-0" key={p}>
            <input
              id={`${id}-${p}`}
              className="form-check-input"
              type="checkbox"
              role="switch"
              checked={m.permissions[p]}
              disabled={busy || !toggleEnabled(team, m, p, selfId)}
              onChange={(e) => onPermission(p, e.target.checked)}
            />
            <label className="form-check-label small" htmlFor={`${id}-${p}`}>
              {t(PERMISSION_LABELS[p])}
            </label>
          </div>
        ))}
      </div>
      {(changeable || (team.can_grant_admin && m.role !== 'owner' && m.user.id !== selfId)) && (
        <div className="d-flex flex-wrap gap-2 mt-2">
          {changeable && (
            <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy} onClick={onRemove}>
              <i className="bi bi-person-dash me-1" aria-hidden="true" />
              {t('Remove')}
            </button>
          )}
          {team.can_grant_admin && m.role !== 'owner' && (
            <button type="button" className="btn btn-sm btn-outline-secondary" disabled={busy} onClick={onHandOver}>
              <i className="bi bi-key me-1" aria-hidden="true" />
              {t('Make owner')}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

function InviteForm({ projectId, roles, onSent }: { projectId: number; roles: MemberRole[]; onSent(): void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('viewer');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const mailWorks = useSettings().smtp_valid;

  const submit = async () => {
    setError(null);
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) {
      setError(t('Invalid email format'));
      return;
    }
    setSending(true);
    try {
      await api.post('/team-members/invite-team-member', { email: email.trim(), role, id_project: projectId }, MESSAGES.sendInvitationFailed);
      showToast('success', t('Invitation sent.'));
      setEmail('');
      onSent();
    } catch (err) {
      setError(t((err as Error).message || MESSAGES.sendInvitationFailed));
    } finally {
      setSending(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      aria-labelledby={`${id}-title`}
    >
      <h3 id={`${id}-title`} className="h6">
        {t('Invite someone')}
      </h3>
      <div className="d-flex flex-wrap gap-2">
        <label className="visually-hidden" htmlFor={`${id}-email`}>
          {t('E-mail address')}
        </label>
        <input
          id={`${id}-email`}
          type="email"
          className={`form-control form-control-sm flex-grow-1 w-auto${error ? ' is-invalid' : ''}`}
          style={{ minWidth: '12rem' }}
          placeholder={t('E-mail address')}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (error) setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-note`}
          autoComplete="off"
        />
        <label className="visually-hidden" htmlFor={`${id}-role`}>
          {t('Role')}
        </label>
        <select id={`${id}-role`} className="form-select form-select-sm w-auto" value={role} onChange={(e) => setRole(e.target.value as MemberRole)}>
          {roles.map((r) => (
            <option key={r} value={r}>
              {t(ROLE_LABELS[r])}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-sm btn-primary" disabled={sending}>
          {sending && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          {t('Invite')}
        </button>
      </div>
      {/* The error takes the hint's place: a hint under a refusal would read as if it contradicted it. */}
      {error ? (
        <div id={`${id}-note`} className="invalid-feedback d-block" role="alert" data-testid="invite-error">
          {error}
        </div>
      ) : (
        <div id={`${id}-note`} className="form-text" data-testid="invite-hint">
          {/* Without a working mail server nothing is mailed: the hint says so instead of promising an e-mail. */}
          {mailWorks ? t('People without an account get an e-mail to create one.') : t('This site cannot send e-mail yet: people with an account find the invitation in the app.')}
        </div>
      )}
    </form>
  );
}
