import { useEffect, useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type MyJoinRequest } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { formatDateTime } from '../../lib/format';
import { Spinner } from '../../components/spinner';
import { MY_JOIN_REQUESTS, useMyJoinRequestsQuery } from './use-join-requests-query';

const STATUS_LABELS: Record<MyJoinRequest['status'], string> = {
  pending: tk('Waiting for an answer'),
  accepted: tk('Accepted'),
  declined: tk('Declined'),
  cancelled: tk('Cancelled'),
};
const STATUS_TONES: Record<MyJoinRequest['status'], string> = { pending: 'warning', accepted: 'success', declined: 'danger', cancelled: 'secondary' };

/** /join: ask to join a project by its code, and follow (or withdraw) your requests. */
export default function JoinPage() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [code, setCode] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const query = useMyJoinRequestsQuery();
  // A list that cannot be read shows as empty; the failure is only logged.
  useEffect(() => void (query.error && console.error(query.error)), [query.error]);
  const requests = query.data ?? (query.isError ? [] : null);
  const load = () => queryClient.invalidateQueries({ queryKey: MY_JOIN_REQUESTS });

  const send = async () => {
    setError(null);
    if (!code.trim()) {
      setError(t('Enter the project code.'));
      return;
    }
    setSending(true);
    try {
      await api.post('/join-requests/send', { project_code: code.trim() }, MESSAGES.sendJoinRequestFailed);
      formToast('success', t('Join request sent. The project owner will answer it.'));
      setCode('');
      await load();
    } catch (err) {
      setError(t((err as Error).message || MESSAGES.sendJoinRequestFailed));
    } finally {
      setSending(false);
    }
  };

  const cancel = async (r: MyJoinRequest) => {
    try {
      await api.post('/join-requests/cancel', { id_project: r.project.id }, tk('Failed to cancel the request.'));
      formToast('success', t('Join request cancelled.'));
      await load();
    } catch (err) {
      formToast('error', t((err as Error).message));
    }
  };

  return (
    <div className="row g-3">
      <div className="col-lg-5">
        <section className="card border-0 shadow-sm" aria-labelledby={`${id}-title`}>
          <div className="card-header bg-transparent">
            <h2 id={`${id}-title`} className="h6 mb-0">
              {t('Join a project with a code')}
            </h2>
          </div>
          <form
            className="card-body"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void send();
            }}
          >
            <label htmlFor={`${id}-code`} className="form-label">
              {t('Project code')}
            </label>
            <input
              id={`${id}-code`}
              className={`form-control${error ? ' is-invalid' : ''}`}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="off"
              maxLength={64}
              aria-describedby={`${id}-help`}
            />
            {error && (
              <div className="invalid-feedback d-block" role="alert">
                {error}
              </div>
            )}
            <div id={`${id}-help`} className="form-text mb-3">
              {t('Ask the project owner for the code. They will see your request and accept or decline it.')}
            </div>
            <button type="submit" className="btn btn-primary" disabled={sending}>
              {sending && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
              {t('Send join request')}
            </button>
            <Link to="/invitations" className="btn btn-link">
              {t('My invitations')}
            </Link>
          </form>
        </section>
      </div>
      <div className="col-lg-7">
        <section className="card border-0 shadow-sm" aria-labelledby={`${id}-mine`}>
          <div className="card-header bg-transparent">
            <h2 id={`${id}-mine`} className="h6 mb-0">
              {t('My join requests')}
            </h2>
          </div>
          <div className="card-body p-0">
            {requests === null ? (
              <div className="p-4">
                <Spinner />
              </div>
            ) : requests.length === 0 ? (
              <p className="text-center text-body-secondary py-5 mb-0" data-testid="join-requests-empty">
                {t('You have not asked to join any project lately.')}
              </p>
            ) : (
              <ul className="list-group list-group-flush">
                {requests.map((r) => (
                  <li key={r.id} className="list-group-item d-flex flex-wrap align-items-center gap-2" data-testid="my-join-request">
                    <div className="me-auto min-w-0">
                      <div className="fw-semibold text-break">
                        {r.status === 'accepted' ? <Link to={`/project/${r.project.id}`}>{r.project.name}</Link> : r.project.name}
                      </div>
                      <div className="small text-body-secondary">
                        {formatDateTime(r.created_at, i18n.language)}
                        {r.retry_after && <> · {t('You can ask again after {date}.', { date: formatDateTime(r.retry_after, i18n.language) })}</>}
                      </div>
                    </div>
                    <span className={`badge text-bg-${STATUS_TONES[r.status]}`}>{t(STATUS_LABELS[r.status])}</span>
                    {r.status === 'pending' && (
                      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void cancel(r)}>
                        {t('Cancel request')}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </section>
      </div>
    </div>
  );
}
