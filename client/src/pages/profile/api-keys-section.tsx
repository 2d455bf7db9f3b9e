import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { API_KEY_SCOPES, apiKeyCreateSchema, type ApiKey, type ApiKeyCreated, type ApiKeyScope } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { useFailureToast } from '../../lib/use-failure-toast';
import { API_KEYS, useApiKeysQuery } from './use-account-queries';

const SCOPE_LABELS: Record<ApiKeyScope, string> = { read: tk('Read only'), 'read-write': tk('Read and write') };
// The schema's own sentences, so the form says in either language what the API would say.
tk('Give the key a name.');
tk('The name of a key has at most 100 characters.');
tk('The scope of a key is "read" or "read-write".');

/**
 * The profile's "API keys" card (issue 24 "The open API"): personal keys for
 * the account's own tools — create one with a name and a scope, see it once
 * to copy it, see when each was last used, revoke one after a confirmation.
 */
export function ApiKeysSection() {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const queryClient = useQueryClient();
  const query = useApiKeysQuery();
  const keys = query.data ?? null;
  useFailureToast(query.error);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [fresh, setFresh] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const load = () => queryClient.invalidateQueries({ queryKey: API_KEYS });

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = apiKeyCreateSchema.safeParse({ name, scope });
    if (!parsed.success) {
      setError(t(parsed.error.issues[0]?.message ?? 'Give the key a name.'));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      setFresh(await api.post<ApiKeyCreated>('/api-keys', parsed.data, tk('Could not create the API key.')));
      setName('');
      showToast('success', t('API key created. Copy it now: it is not shown again.'));
      await load();
    } catch (err) {
      showToast('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!fresh) return;
    try {
      await navigator.clipboard.writeText(fresh.key);
      showToast('success', t('Copied.'));
    } catch {
      showToast('error', t('Could not copy. Select the key and copy it by hand.'));
    }
  };

  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    try {
      await api.delete(`/api-keys/${revoking.id}`, tk('Could not revoke the API key.'));
      showToast('success', t('API key revoked. It no longer works.'));
      if (fresh?.id === revoking.id) setFresh(null);
      setRevoking(null);
      await load();
    } catch (err) {
      showToast('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="profile-api-keys-heading" data-testid="api-keys-card">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h3 id="profile-api-keys-heading" className="h6 mb-0 me-auto">
          {t('API keys')}
        </h3>
        <a className="small" href="/api/docs" target="_blank" rel="noopener">
          {t('API documentation')}
        </a>
      </div>
      <div className="card-body">
        <p className="small text-body-secondary">
          {t('A key lets your own tools use {site} as you, with your rights. A read-only key cannot change anything.')}
        </p>
        <form className="row g-2 align-items-end mb-3" onSubmit={(e) => void create(e)} noValidate>
          <div className="col-12 col-sm-6">
            <label className="form-label small mb-1" htmlFor={`${ids}-name`}>
              {t('Key name')}
            </label>
            <input
              id={`${ids}-name`}
              className={`form-control form-control-sm${error ? ' is-invalid' : ''}`}
              value={name}
              maxLength={100}
              onChange={(e) => setName(e.target.value)}
              aria-describedby={error ? `${ids}-error` : undefined}
              aria-invalid={error ? true : undefined}
            />
            {error && (
              <div id={`${ids}-error`} className="invalid-feedback">
                {error}
              </div>
            )}
          </div>
          <div className="col-7 col-sm-3">
            <label className="form-label small mb-1" htmlFor={`${ids}-scope`}>
              {t('Access')}
            </label>
            <select id={`${ids}-scope`} className="form-select form-select-sm" value={scope} onChange={(e) => setScope(e.target.value as ApiKeyScope)}>
              {API_KEY_SCOPES.map((s) => (
                <option key={s} value={s}>
                  {t(SCOPE_LABELS[s])}
                </option>
              ))}
            </select>
          </div>
          <div className="col-5 col-sm-3 d-grid">
            <button type="submit" className="btn btn-sm btn-primary" disabled={busy}>
              {t('Create key')}
            </button>
          </div>
        </form>

        {fresh && (
          <div className="alert alert-warning" role="status" data-testid="api-key-once">
            <p className="mb-2 small fw-semibold">{t('Copy this key now: it is not shown again.')}</p>
            <div className="input-group input-group-sm">
              <input className="form-control font-monospace" dir="ltr" readOnly value={fresh.key} aria-label={t('New API key')} onFocus={(e) => e.target.select()} />
              <button type="button" className="btn btn-outline-secondary" onClick={() => void copy()}>
                {t('Copy')}
              </button>
            </div>
            <button type="button" className="btn btn-sm btn-link px-0 mt-2" onClick={() => setFresh(null)}>
              {t('I have copied it')}
            </button>
          </div>
        )}

        {keys === null ? (
          <div className="spinner-border spinner-border-sm" role="status" aria-label={t('Loading')} />
        ) : keys.length === 0 ? (
          <p className="small text-body-secondary mb-0">{t('No API keys yet. Create one to connect your own tools.')}</p>
        ) : (
          <ul className="list-group list-group-flush" data-testid="api-keys">
            {keys.map((k) => (
              <li key={k.id} className="list-group-item px-0 d-flex flex-wrap align-items-center gap-2">
                <div className="me-auto text-break">
                  <div>
                    {k.name}
                    <span className="badge text-bg-secondary ms-2">{t(SCOPE_LABELS[k.scope])}</span>
                    {k.revoked_at && <span className="badge text-bg-danger ms-2">{t('Revoked')}</span>}
                  </div>
                  <div className="small text-body-secondary">
                    <code dir="ltr">{k.prefix}…</code> ·{' '}
                    {k.last_used_at ? t('Last used {when}', { when: formatDateTime(k.last_used_at, i18n.language) }) : t('Never used')}
                  </div>
                </div>
                {!k.revoked_at && (
                  <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setRevoking(k)} disabled={busy} aria-label={t('Revoke {name}', { name: k.name })}>
                    {t('Revoke')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      <ConfirmDialog
        show={revoking !== null}
        title={t('Revoke API key')}
        body={t('Revoke "{name}"? Tools that use it stop working at once.', { name: revoking?.name ?? '' })}
        confirmLabel={t('Revoke')}
        busy={busy}
        onCancel={() => setRevoking(null)}
        onConfirm={() => void revoke()}
      />
    </section>
  );
}
