import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';
import { StarButton } from '../../components/star-button';
import { Spinner } from '../../components/spinner';
import { ProjectRow } from './project-row';
import { STARRED_SHOWN, useProjectsWidgetsQuery } from './use-dashboard-queries';
import '../projects/projects.css';

/**
 * The dashboard's projects part: how many projects the user has (owned or
 * joined), the starred ones, and the way to the list and to a new project.
 */
export function ProjectsWidgets() {
  const { t, i18n } = useTranslation();
  const query = useProjectsWidgetsQuery();
  const load = query.data;

  return (
    <section aria-labelledby="starred-projects-heading" className="card border-0 shadow-sm mt-4" data-testid="projects-widgets">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h2 id="starred-projects-heading" className="h6 mb-0 me-auto">
          {t('Starred projects')}
        </h2>
        {load && (
          <Link to="/projects" className="btn btn-sm btn-outline-primary" data-testid="projects-total">
            {t('All projects ({n})', { n: formatNumber(load.total, i18n.language) })}
          </Link>
        )}
        <Link to="/editproject/new" className="btn btn-sm btn-primary">
          <i className="bi bi-plus-lg me-1" aria-hidden="true" />
          {t('New project')}
        </Link>
      </div>
      <div className="card-body">
        {query.isPending && <Spinner />}
        {query.isError && <div className="text-danger small">{t(query.error.message)}</div>}
        {load && load.starred.items.length === 0 && (
          <div className="text-center text-body-secondary py-3">
            <i className="bi bi-star fs-2 d-block mb-2" aria-hidden="true" />
            {load.total === 0 ? t('Create your first project to get started.') : t('Star the projects you follow most to find them here.')}
          </div>
        )}
        {load && load.starred.items.length > 0 && (
          <ul className="list-group list-group-flush">
            {load.starred.items.map((p) => (
              <ProjectRow key={p.id} project={p} detail={t('Sheets: {n}', { n: formatNumber(p.sheets_count, i18n.language) })}>
                <StarButton projectId={p.id} projectName={p.name} starred={p.starred} onChange={(s) => query.setStarred(p.id, s)} />
              </ProjectRow>
            ))}
          </ul>
        )}
        {load && load.starred.total > STARRED_SHOWN && (
          <Link to="/projects?starred=1" className="small d-inline-block mt-2">
            {t('See all starred projects')}
          </Link>
        )}
      </div>
    </section>
  );
}
