import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { ShowcaseProject } from '@sitewalk/proto';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useSettings } from '../../stores/settings.store';
import { LanguageButtons } from '../../components/language-buttons';
import { Spinner } from '../../components/spinner';
import { useShowcaseQuery } from './use-showcase-query';
import '../projects/projects.css';

type Load = { status: 'idle' } | { status: 'loading' } | { status: 'missing' } | { status: 'error'; message: string } | { status: 'ready'; project: ShowcaseProject };

/** /showcase?project_code=…: the public page of an active, validated project. */
export default function ShowcasePage() {
  const { t, i18n } = useTranslation();
  const settings = useSettings();
  const [params, setParams] = useSearchParams();
  const code = (params.get('project_code') ?? '').trim();
  const [typed, setTyped] = useState(code);
  const query = useShowcaseQuery(code);
  const load: Load = !code
    ? { status: 'idle' }
    : query.data
      ? { status: 'ready', project: query.data }
      : query.missing
        ? { status: 'missing' }
        : query.isError
          ? { status: 'error', message: query.error.message }
          : { status: 'loading' };
  const siteName = settings.name || 'SiteWalk';

  // The box shows the code of the address (after Back, or a link).
  useEffect(() => setTyped(code), [code]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed.trim()) setParams({ project_code: typed.trim() });
  };

  const codeForm = (
    <form className="d-flex flex-wrap gap-2 justify-content-center" onSubmit={submit} role="search" aria-label={t('Find a project by its code')}>
      <label htmlFor="showcase-code" className="visually-hidden">
        {t('Project code')}
      </label>
      <input id="showcase-code" className="form-control w-auto" placeholder={t('Project code')} value={typed} maxLength={64} onChange={(e) => setTyped(e.target.value)} />
      <button type="submit" className="btn btn-primary" disabled={!typed.trim()}>
        {t('Show project')}
      </button>
    </form>
  );

  const p = load.status === 'ready' ? load.project : null;
  return (
    <div className="sw-showcase d-flex flex-column">
      <header className="d-flex align-items-center gap-2 px-3 py-2 bg-body border-bottom">
        <span className="sw-auth-brand me-auto">{siteName}</span>
        <LanguageButtons />
        <Link to="/login" className="btn btn-sm btn-outline-secondary">
          {t('Sign in')}
        </Link>
      </header>
      <div className="sw-showcase-hero" aria-hidden={p?.cover_url ? undefined : true}>
        {p?.cover_url && <img src={p.cover_url} alt={t('Cover of {name}', { name: p.name })} />}
      </div>
      <main className="container flex-grow-1 pb-5">
        <div className="card border-0 shadow sw-showcase-card mx-auto" style={{ maxWidth: '48rem' }}>
          <div className="card-body p-4">
            {load.status === 'idle' && (
              <div className="text-center">
                <h1 className="h4 mb-3">{t('Project showcase')}</h1>
                <p className="text-body-secondary">{t('Enter the code of a project to see its public page.')}</p>
                {codeForm}
              </div>
            )}
            {load.status === 'loading' && <Spinner />}
            {load.status === 'missing' && (
              <div className="text-center" data-testid="showcase-missing">
                <h1 className="h4 mb-3">{t('Project not found')}</h1>
                <p className="text-body-secondary">{t('No public project has this code. Check the code, or ask the project team to publish it.')}</p>
                {codeForm}
              </div>
            )}
            {load.status === 'error' && (
              <div className="alert alert-danger mb-0" role="alert">
                {t(load.message)}
              </div>
            )}
            {p && (
              <article data-testid="showcase-project">
                <h1 className="h3 mb-1">{p.name}</h1>
                <div className="text-body-secondary mb-3 d-flex flex-wrap gap-3">
                  {p.project_type && (
                    <span>
                      <i className="bi bi-tag me-1" aria-hidden="true" />
                      {p.project_type}
                    </span>
                  )}
                  {(p.city || p.country) && (
                    <span>
                      <i className="bi bi-geo-alt me-1" aria-hidden="true" />
                      {[p.city, p.country].filter(Boolean).join(', ')}
                    </span>
                  )}
                  <span>
                    <i className="bi bi-map me-1" aria-hidden="true" />
                    {t('Sheets: {n}', { n: formatNumber(p.sheets_count, i18n.language) })}
                  </span>
                  <span>
                    <i className="bi bi-calendar me-1" aria-hidden="true" />
                    {t('Since {date}', { date: formatDateTime(p.created_at, i18n.language) })}
                  </span>
                </div>
                {p.description ? <p style={{ whiteSpace: 'pre-line' }}>{p.description}</p> : null}
                <p className="small text-body-secondary mb-0">
                  {t('Project code')}: <code>{p.project_code}</code>
                </p>
              </article>
            )}
          </div>
        </div>
      </main>
    </div>
  );
}
