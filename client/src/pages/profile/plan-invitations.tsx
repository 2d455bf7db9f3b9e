import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlanMember } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { usePlanInvitationsQuery } from './use-profile-queries';

interface Props {
  /** Called after the user joined a plan, so the profile shows it. */
  onJoined(): Promise<unknown>;
}

/**
 * The plan invitations waiting for the signed-in user: nobody joins a plan
 * without saying yes here. Shows nothing when there are none.
 */
export function PlanInvitations({ onJoined }: Props) {
  const { t } = useTranslation();
  const query = usePlanInvitationsQuery();
  const invitations = query.data ?? [];
  const [busy, setBusy] = useState(false);
  const [declining, setDeclining] = useState<PlanMember | null>(null);

  const answer = async (inv: PlanMember, accept: boolean) => {
    setBusy(true);
    try {
      await api.post(`/plan-members/${inv.id}/${accept ? 'accept' : 'decline'}`, {}, tk('Could not answer the invitation.'));
      showToast('success', accept ? t('You joined the plan "{plan}".', { plan: inv.plan_name }) : t('Invitation declined.'));
      setDeclining(null);
      await query.refetch();
      if (accept) await onJoined();
    } catch (err) {
      showToast('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (!invitations.length) return null;
  return (
    <div className="mb-3" data-testid="plan-invitations">
      <h4 className="h6">{t('Plan invitations')}</h4>
      <ul className="list-group list-group-flush">
        {invitations.map((inv) => (
          <li key={inv.id} className="list-group-item px-0 d-flex flex-wrap align-items-center gap-2">
            <div className="me-auto text-break">{t('You are invited to join the plan "{plan}".', { plan: inv.plan_name })}</div>
            <button type="button" className="btn btn-sm btn-primary" onClick={() => void answer(inv, true)} disabled={busy}>
              {t('Accept')}
            </button>
            <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setDeclining(inv)} disabled={busy}>
              {t('Decline')}
            </button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        show={declining !== null}
        title={t('Decline the invitation')}
        body={t('Decline the invitation to the plan "{plan}"? Ask its owner to invite you again if you change your mind.', { plan: declining?.plan_name ?? '' })}
        confirmLabel={t('Decline')}
        busy={busy}
        onCancel={() => setDeclining(null)}
        onConfirm={() => declining && void answer(declining, false)}
      />
    </div>
  );
}
