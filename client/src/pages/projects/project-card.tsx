import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { ProjectSummary } from '@sitewalk/proto';
import { formatDateTime } from '../../lib/format';
import { StarButton } from '../../components/star-button';

/** One project in the /projects grid: cover, name, place, type, categories, sheets and its star. */
export function ProjectCard({ project: p, onStar }: { project: ProjectSummary; onStar(starred: boolean): void }) {
  const { t, i18n } = useTranslation();
  const place = [p.city, p.country].filter(Boolean).join(', ');
  return (
    <article className="card h-100 border-0 shadow-sm sw-project-card" aria-labelledby={`project-${p.id}-name`} data-testid="project-card">
      <Link to={`/project/${p.id}`} tabIndex={-1} aria-hidden="true" className="sw-project-cover">
        {p.cover_thumb_url ? (
          <img src={p.cover_thumb_url} alt="" loading="lazy" />
        ) : (
          <span className="sw-project-cover-empty">
            <i className="bi bi-building" />
          </span>
        )}
      </Link>
      <div className="card-body d-flex flex-column gap-1">
        <div className="d-flex align-items-start gap-1">
          <h3 className="h6 mb-0 flex-grow-1 min-w-0" id={`project-${p.id}-name`}>
            <Link to={`/project/${p.id}`} className="text-break">
              {p.name}
            </Link>
          </h3>
          <StarButton projectId={p.id} projectName={p.name} starred={p.starred} onChange={onStar} />
        </div>
        {place && (
          <div className="small text-body-secondary">
            <i className="bi bi-geo-alt me-1" aria-hidden="true" />
            {place}
          </div>
        )}
        <div className="d-flex flex-wrap gap-1 mt-1">
          {p.project_type && <span className="badge text-bg-secondary">{p.project_type.name}</span>}
          {p.categories.map((c) => (
            <span key={c.id} className="badge rounded-pill bg-primary-subtle text-primary-emphasis">
              {c.name}
            </span>
          ))}
          {!p.validated && <span className="badge text-bg-warning">{t('Awaiting approval')}</span>}
          {!p.active && <span className="badge text-bg-dark">{t('Inactive')}</span>}
        </div>
      </div>
      <div className="card-footer bg-transparent small text-body-secondary d-flex justify-content-between gap-2">
        <span>
          <i className="bi bi-map me-1" aria-hidden="true" />
          {t('Sheets: {n}', { n: p.sheets_count })}
        </span>
        <span title={t('Last updated')}>{formatDateTime(p.updated_at, i18n.language)}</span>
      </div>
    </article>
  );
}
