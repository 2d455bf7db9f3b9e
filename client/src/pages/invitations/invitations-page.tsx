import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { MyInvitation } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { formatDateTime } from '../../lib/format';
import { ROLE_LABELS } from '../../lib/team-rules';
import { Spinner } from '../../components/spinner';
import { SectionCard } from '../../components/section-card';
import { useMyInvitationsQuery } from './use-my-invitations-query';

const personName = (u: { first_name: string; last_name: string; username: string }) => `${u.first_name} ${u.last_name}`.trim() || u.username;

/** /invitations: the projects the signed-in user is invited to; accept or decline each. */
export default function InvitationsPage() {
  const { t, i18n } = useTranslation();
  const query = useMyInvitationsQuery();
  const items = query.data ?? null;
  const error = query.isError ? query.error.message : null;
  const [busy, setBusy] = useState<number | null>(null);

  const answer = async (inv: MyInvitation, accept: boolean) => {
    setBusy(inv.id);
    try {
      await api.post(`/users/invitations/${accept ? 'accept' : 'decline'}/${inv.id}`, {}, accept ? tk('Failed to accept the invitation.') : tk('Failed to decline the invitation.'));
      formToast('success', accept ? t('You joined {name}.', { name: inv.project.name }) : t('Invitation declined.'));
      await query.refetch();
    } catch (err) {
      formToast('error', t((err as Error).message));
    } finally {
      setBusy(null);
    }
  };

  return (
    <SectionCard
      headingId="invitations-heading"
      title={t('My invitations')}
      action={
        <Link to="/join" className="btn btn-sm btn-outline-primary">
          <i className="bi bi-box-arrow-in-right me-1" aria-hidden="true" />
          {t('Join a project with a code')}
        </Link>
      }
    >
      <div className="card-body p-0">
        {error ? (
          <div className="alert alert-danger m-3 d-flex align-items-center gap-2" role="alert">
            <span className="me-auto">{t(error)}</span>
            <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void query.refetch()}>
              {t('Try again')}
            </button>
          </div>
        ) : items === null ? (
          <div className="p-4">
            <Spinner />
          </div>
        ) : items.length === 0 ? (
          <div className="text-center text-body-secondary py-5" data-testid="invitations-empty">
            <i className="bi bi-envelope-open fs-1 d-block mb-2" aria-hidden="true" />
            {t('No invitation is waiting for you.')}
          </div>
        ) : (
          <ul className="list-group list-group-flush" aria-label={t('My invitations')}>
            {items.map((inv) => (
              <li key={inv.id} className="list-group-item d-flex flex-wrap gap-2 align-items-center py-3" data-testid="invitation">
                <div className="me-auto min-w-0">
                  <div className="fw-semibold text-break">{inv.project.name}</div>
                  <div className="small text-body-secondary">
                    {inv.invited_by ? t('{name} invited you as {role}.', { name: personName(inv.invited_by), role: t(ROLE_LABELS[inv.role]) }) : t('You are invited as {role}.', { role: t(ROLE_LABELS[inv.role]) })}{' '}
                    {formatDateTime(inv.created_at, i18n.language)}
                  </div>
                </div>
                <button type="button" className="btn btn-sm btn-success" disabled={busy !== null} onClick={() => void answer(inv, true)}>
                  {busy === inv.id && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
                  {t('Accept')}
                </button>
                <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy !== null} onClick={() => void answer(inv, false)}>
                  {t('Decline')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </SectionCard>
  );
}
