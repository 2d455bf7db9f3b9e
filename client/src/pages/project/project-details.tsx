import { useTranslation } from 'react-i18next';
import type { ProjectDetail } from '@sitewalk/proto';
import { formatDateTime, formatDay, formatNumber } from '../../lib/format';
import { tk } from '../../lib/i18n-keys';


/** The project's facts; empty ones are left out. */
export function ProjectDetails({ project: p }: { project: ProjectDetail }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const owner = [p.owner.first_name, p.owner.last_name].filter(Boolean).join(' ') || p.owner.username;
  const address = [p.street, [p.postal_code, p.city].filter(Boolean).join(' '), p.province, p.country].filter(Boolean).join(', ');
  const rows: [string, string][] = [
    [tk('Project code'), p.project_code],
    [tk('Client'), p.client_name],
    [tk('Project type'), p.project_type?.name ?? ''],
    [tk('Address'), address],
    [tk('Start date'), p.start_date ? formatDay(p.start_date, lang) : ''],
    [tk('End date'), p.end_date ? formatDay(p.end_date, lang) : ''],
    [tk('Area (m²)'), p.area !== null ? formatNumber(p.area, lang) : ''],
    [tk('Buildings'), p.num_buildings !== null ? formatNumber(p.num_buildings, lang) : ''],
    [tk('Floors'), p.num_floors !== null ? formatNumber(p.num_floors, lang) : ''],
    [tk('Owner'), owner],
    [tk('Created'), formatDateTime(p.created_at, lang)],
    [tk('Last updated'), formatDateTime(p.updated_at, lang)],
  ];
  return (
    <section className="card border-0 shadow-sm mb-3" aria-labelledby="details-heading">
      <div className="card-header bg-transparent">
        <h2 id="details-heading" className="h6 mb-0">
          {t('Details')}
        </h2>
      </div>
      <div className="card-body">
        {p.description && <p className="mb-3" style={{ whiteSpace: 'pre-line' }}>{p.description}</p>}
        <dl className="sw-details mb-0">
          {rows
            .filter(([, v]) => v)
            .map(([label, value]) => (
              <div key={label}>
                <dt>{t(label)}</dt>
                <dd>{value}</dd>
              </div>
            ))}
        </dl>
      </div>
    </section>
  );
}
