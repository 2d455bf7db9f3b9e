import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type PlanInfo, type PlanMember, type PlanMembersView, type PlanSlot } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { TextField } from '../../components/text-field';
import { formatMoney } from '../plans/plan-format';
import { planUsageRows } from '../../lib/plan-limits';

export const MEMBER_ROLE_LABELS = { member: tk('Member'), manager: tk('Manager') } as const;
export const MEMBER_STATUS_LABELS = { active: tk('Joined'), invited: tk('Invitation pending') } as const;

interface Props {
  info: PlanInfo | null;
  slot: PlanSlot | null;
  members: PlanMembersView;
  /** The signed-in user (owner, manager, member) and whether they are a super admin. */
  me: { id: number; super_admin: boolean };
  onChanged(): Promise<unknown>;
}

/**
 * The body of the profile's Plan card: the plan, when it expires, its member
 * slots, who uses them and who is invited; the owner (and managers) invite
 * by e-mail and remove people, after a confirmation; a member may leave.
 */
export function PlanMembersCard({ info, slot, members, me, onChanged }: Props) {
  const { t, i18n } = useTranslation();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<PlanMember | null>(null);

  if (!info) return <span className="text-body-secondary">{t('No subscription plan yet.')}</span>;
  const manages = info.is_owner || info.role === 'manager';
  const people = [...members.members, ...members.invites];

  const invite = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return;
    setBusy(true);
    try {
      const m = await api.post<PlanMember>('/plan-members/invite', { email: email.trim() }, MESSAGES.sendInvitationFailed);
      showToast('success', t('An invitation was sent to {email}.', { email: m.email }));
      setEmail('');
      await onChanged();
    } catch (err) {
      showToast('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    try {
      await api.delete(`/plan-members/${removing.id}`, MESSAGES.cancelInvitationFailed);
      showToast('success', t('Removed from the plan.'));
      setRemoving(null);
      await onChanged();
    } catch (err) {
      showToast('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const nameOf = (m: PlanMember) => m.user?.name ?? m.email;
  const usedPct = slot && slot.total > 0 ? Math.round((slot.used / slot.total) * 100) : 100;

  return (
    <div data-testid="plan-card">
      <div className="d-flex flex-wrap align-items-baseline gap-2">
        <strong data-testid="plan-name">{info.name}</strong>
        <span className="text-body-secondary small">
          {formatMoney(info.price, info.currency, i18n.language)} {info.period === 'year' ? t('per year') : t('per month')}
        </span>
      </div>
      <div className={`small mt-1 ${info.expired ? 'text-danger' : info.days_left <= 7 ? 'text-warning-emphasis' : 'text-body-secondary'}`}>
        {info.expired ? t('Expired on {date}', { date: info.expires_at }) : t('Expires on {date} ({days} days left)', { date: info.expires_at, days: info.days_left })}
      </div>
      {slot && (
        <div className="mt-3">
          <div className="d-flex justify-content-between small">
            <span>{t('Member slots')}</span>
            <span data-testid="plan-slots">{t('{used} of {total} used', { used: slot.used, total: slot.total })}</span>
          </div>
          <div className="progress mt-1" role="progressbar" aria-label={t('Member slots')} aria-valuenow={slot.used} aria-valuemin={0} aria-valuemax={slot.total} style={{ height: '0.5rem' }}>
            <div className={`progress-bar ${slot.free === 0 ? 'bg-warning' : ''}`} style={{ width: `${usedPct}%` }} />
          </div>
        </div>
      )}
      {/* A profile cached by an older version has no usage yet: the card shows it after the next load. */}
      {info.usage && (
        <div className="mt-3" data-testid="plan-usage">
          {planUsageRows(info).map((r) => (
            <div key={r.label} className="mb-2">
              <div className="d-flex flex-wrap justify-content-between small column-gap-2">
                <span>{t(r.label)}</span>
                <span className={r.full ? 'text-danger' : undefined} data-testid={`plan-usage-${r.label.toLowerCase().replace(/\s+/g, '-')}`}>
                  {t(r.text.key, r.text.vars)}
                </span>
              </div>
              {r.percent != null && (
                <div className="progress mt-1" role="progressbar" aria-label={t(r.label)} aria-valuenow={r.percent} aria-valuemin={0} aria-valuemax={100} style={{ height: '0.5rem' }}>
                  <div className={`progress-bar ${r.full ? 'bg-danger' : r.percent >= 80 ? 'bg-warning' : ''}`} style={{ width: `${r.percent}%` }} />
                </div>
              )}
            </div>
          ))}
          {info.expired && <div className="small text-danger">{t('Nothing new can be added until the plan is renewed.')}</div>}
        </div>
      )}
      <h4 className="h6 mt-3">{t('People in this plan')}</h4>
      {people.length === 0 ? (
        <p className="text-body-secondary small" data-testid="plan-members-empty">
          {manages ? t('Nobody else uses this plan yet. Invite people by e-mail below.') : t('Nobody else uses this plan yet.')}
        </p>
      ) : (
        <ul className="list-group list-group-flush mb-2" data-testid="plan-members">
          {people.map((m) => (
            <li key={m.id} className="list-group-item px-0 d-flex flex-wrap align-items-center gap-2">
              <div className="me-auto text-break">
                <div>{nameOf(m)}</div>
                <div className="small text-body-secondary">
                  {t(MEMBER_STATUS_LABELS[m.status])} · {t(MEMBER_ROLE_LABELS[m.role])}
                </div>
              </div>
              {me.super_admin && (
                <Link to={`/editmember/${m.id}`} className="btn btn-sm btn-outline-secondary" aria-label={t('Edit {name}', { name: nameOf(m) })}>
                  <i className="bi bi-pencil" aria-hidden="true" />
                </Link>
              )}
              {(manages || m.id_user === me.id) && (
                <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setRemoving(m)} disabled={busy}>
                  {m.id_user === me.id ? t('Leave the plan') : m.status === 'invited' ? t('Cancel invitation') : t('Remove')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {manages && (
        <form className="d-flex flex-wrap align-items-end gap-2" onSubmit={invite} aria-label={t('Invite into the plan')}>
          <TextField className="flex-grow-1" label={t('Invite by e-mail')} type="email" value={email} onChange={setEmail} autoComplete="off" dir="ltr" />
          <button type="submit" className="btn btn-primary mb-3" disabled={busy || !email.trim() || slot?.free === 0}>
            {t('Invite')}
          </button>
          {slot?.free === 0 && <div className="small text-body-secondary w-100">{t('Every slot is in use: remove someone to invite another person.')}</div>}
        </form>
      )}
      <ConfirmDialog
        show={removing !== null}
        title={removing?.id_user === me.id ? t('Leave the plan') : t('Remove from the plan')}
        body={removing?.id_user === me.id ? t('Leave the plan "{plan}"?', { plan: info.name }) : t('Remove {name} from the plan "{plan}"? Their slot becomes free.', { name: removing ? nameOf(removing) : '', plan: info.name })}
        confirmLabel={removing?.id_user === me.id ? t('Leave the plan') : t('Remove')}
        busy={busy}
        onCancel={() => setRemoving(null)}
        onConfirm={() => void remove()}
      />
    </div>
  );
}
