import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../routes/route-table';
import { breadcrumbsVisible, buildBreadcrumbs } from '../../lib/breadcrumbs';
import { usePageMetaStore } from '../../stores/page-meta.store';

/** SPEC §2 breadcrumb trail, hidden when it has one item or none. */
export function BreadcrumbTrail() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = usePageMetaStore((s) => s.title);
  const parents = usePageMetaStore((s) => s.parents);
  const crumbs = buildBreadcrumbs(ROUTES, pathname, { parents, current });
  if (!breadcrumbsVisible(crumbs)) return null;
  return (
    <nav aria-label={t('Breadcrumb')} className="sw-breadcrumbs">
      <ol className="breadcrumb mb-3">
        {crumbs.map((c, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={`${c.label}-${i}`} className={`breadcrumb-item${last ? ' active' : ''}`} aria-current={last ? 'page' : undefined}>
              {c.to && !last ? <Link to={c.to}>{c.raw ? <bdi>{c.label}</bdi> : t(c.label)}</Link> : c.raw ? <bdi>{c.label}</bdi> : t(c.label)}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
