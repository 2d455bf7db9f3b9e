import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, PLAN_MEMBER_ROLES, type PlanMember, type PlanMemberRole } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formToast } from '../../lib/toast';
import { Spinner } from '../../components/spinner';
import { SelectField } from '../../components/edit-form/fields';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import NotFoundPage from '../not-found/not-found-page';
import { MEMBER_ROLE_LABELS, MEMBER_STATUS_LABELS } from '../profile/plan-members';
import { formatDate } from '../../lib/format';
import { usePlanMemberQuery } from './use-plan-member-query';

/**
 * /editmember/{id} (super admins): one member of a subscription plan — who,
 * which plan, invited or joined — with their role in the plan (a manager may
 * invite and remove people too), and removal behind a confirmation.
 */
export default function EditMemberPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const valid = !!id && /^[1-9]\d{0,9}$/.test(id);
  const query = usePlanMemberQuery(valid ? Number(id) : null);
  const { missing, setMember } = query;
  const member = query.data ?? null;
  const [role, setRole] = useState<PlanMemberRole>('member');
  // The role choice starts from the member as read (and as saved).
  useEffect(() => void (member && setRole(member.role)), [member]);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  if (!valid || missing) return <NotFoundPage />;
  if (query.isError)
    return (
      <div className="alert alert-danger" role="alert">
        {t('Failed to fetch plans')}
      </div>
    );
  if (!member) return <Spinner size="lg" />;

  const name = member.user?.name ?? member.email;
  const save = async () => {
    setBusy(true);
    try {
      setMember(await api.put<PlanMember>(`/plan-members/${member.id}`, { role }, MESSAGES.fetchPlansFailed));
      formToast('success', t('Member updated.'));
    } catch (err) {
      formToast('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      await api.delete(`/plan-members/${member.id}`, MESSAGES.fetchPlansFailed);
      formToast('success', t('Removed from the plan.'));
      navigate('/plans', { replace: true });
    } catch (err) {
      formToast('error', (err as Error).message);
      setBusy(false);
    }
  };

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="edit-member-heading">
      <div className="card-header bg-transparent">
        <h2 id="edit-member-heading" className="h6 mb-0">
          {t('Plan member')}
        </h2>
      </div>
      <div className="card-body">
        <dl className="row mb-3">
          <dt className="col-sm-4">{t('Member')}</dt>
          <dd className="col-sm-8 text-break" data-testid="member-name">
            {name}
            {member.user && <div className="small text-body-secondary">{member.email}</div>}
          </dd>
          <dt className="col-sm-4">{t('Plan')}</dt>
          <dd className="col-sm-8">{member.plan_name}</dd>
          <dt className="col-sm-4">{t('Status')}</dt>
          <dd className="col-sm-8">{t(MEMBER_STATUS_LABELS[member.status])}</dd>
          <dt className="col-sm-4">{member.joined_at ? t('Joined') : t('Invited')}</dt>
          <dd className="col-sm-8">{formatDate(member.joined_at ?? member.created_at, i18n.language)}</dd>
        </dl>
        <SelectField label={t('Role in the plan')} value={role} onChange={(v) => setRole(v === 'manager' ? 'manager' : 'member')} hint={t('Managers may invite people into the plan and remove them.')}>
          {PLAN_MEMBER_ROLES.map((r) => (
            <option key={r} value={r}>
              {t(MEMBER_ROLE_LABELS[r])}
            </option>
          ))}
        </SelectField>
        <div className="d-flex flex-wrap gap-2 border-top pt-3">
          <button type="button" className="btn btn-primary" disabled={busy || role === member.role} onClick={() => void save()}>
            {t('Save changes')}
          </button>
          <Link to="/plans" className="btn btn-outline-secondary">
            {t('Back to plans')}
          </Link>
          <button type="button" className="btn btn-outline-danger ms-auto" disabled={busy} onClick={() => setConfirming(true)}>
            {t('Remove from the plan')}
          </button>
        </div>
      </div>
      <ConfirmDialog
        show={confirming}
        title={t('Remove from the plan')}
        body={t('Remove {name} from the plan "{plan}"? Their slot becomes free.', { name, plan: member.plan_name })}
        confirmLabel={t('Remove')}
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void remove()}
      />
    </section>
  );
}
