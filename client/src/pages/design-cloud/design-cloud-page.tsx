import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type AdskFolderEntry, type AdskHub, type AdskProject, type AdskSyncRun, type AdskVersion } from '@sitewalk/proto';
import { api, errorMessage } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { Spinner } from '../../components/spinner';
import { useSettings } from '../../stores/settings.store';
import { useDesignCloudStore } from '../../stores/design-cloud.store';
import { crumbs, enter, levelOf, listUrl, upTo, type BrowsePath, type Level, type PathNode } from './browse-path';
import { useAccSheetsQuery, useAutodeskListQuery, useManifestQuery, useSyncRuns } from './use-design-cloud-queries';
import { DesignCloudConnect } from './design-cloud-card';
import { formatDate } from '../../lib/format';
import { useFailureToast } from '../../lib/use-failure-toast';

type Row = AdskHub | AdskProject | AdskFolderEntry | AdskVersion;

const FAILED: Record<Level, string> = {
  hubs: MESSAGES.adskHubsFailed,
  projects: MESSAGES.adskProjectsFailed,
  folders: MESSAGES.adskFoldersFailed,
  contents: MESSAGES.adskFoldersFailed,
  versions: tk('Failed to get item versions'),
};
const EMPTY: Record<Level, string> = {
  hubs: tk('Your Autodesk account has no hubs.'),
  projects: tk('No projects to show in this hub.'),
  folders: tk('This project has no folders.'),
  contents: tk('This folder is empty.'),
  versions: tk('This file has no versions.'),
};

/** /design-cloud: browse the linked Autodesk account and bring hubs and projects into SiteWalk. */
export default function DesignCloudPage() {
  const { t } = useTranslation();
  const settings = useSettings();
  const link = useDesignCloudStore((s) => s.link);
  const recheck = useDesignCloudStore((s) => s.recheck);
  const takeCallback = useDesignCloudStore((s) => s.takeCallback);
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const rest = takeCallback(location.search);
    if (rest !== null) navigate({ pathname: location.pathname, search: rest }, { replace: true });
    else if (link === 'unknown' || link === 'disabled') recheck();
    // Once per arrival: the store re-checks on user changes itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!settings.adsk_enable) {
    return (
      <div className="alert alert-info" role="status">
        {t('The Autodesk integration is switched off. An administrator can turn it on in Settings.')}
      </div>
    );
  }
  if (link !== 'connected') {
    return (
      <div className="card border-0 shadow-sm">
        <div className="card-body">
          <DesignCloudConnect />
        </div>
      </div>
    );
  }
  return <Browser />;
}

function Browser() {
  const { t, i18n } = useTranslation();
  const [path, setPath] = useState<BrowsePath>([]);
  const [excludeExisting, setExcludeExisting] = useState(true);
  const [manifest, setManifest] = useState<{ name: string; urn: string } | null>(null);
  const { runs, add } = useSyncRuns();
  const level = levelOf(path);
  const list = useAutodeskListQuery<Row>(listUrl(path, excludeExisting), FAILED[level]);
  // A new try shows the spinner, not the last refusal.
  const error = list.isError && !list.isFetching ? errorMessage(list.error, FAILED[level]) : null;
  const rows = list.data ?? null;
  useFailureToast(list.error, (message) => t(message || FAILED[level]));

  const open = (node: PathNode) => {
    setManifest(null);
    setPath((p) => enter(p, node));
  };

  const sync = async (kind: 'hub' | 'project', id: string, hubId?: string) => {
    try {
      const run =
        kind === 'hub'
          ? await api.post<AdskSyncRun>('/autodesk/sync-hub', { hub_id: id }, tk('Failed to start the sync'))
          : await api.post<AdskSyncRun>('/autodesk/sync-project', { adsk_project_id: id, hub_id: hubId }, tk('Failed to start the sync'));
      add(run);
      showToast('info', t('The sync has started. You can follow it below.'));
    } catch (err) {
      showToast('error', t(errorMessage(err, tk('Failed to start the sync'))));
    }
  };

  const showSheets = (name: string, urn: string) => setManifest({ name, urn });

  const hub = path.find((n) => n.kind === 'hub');
  const labels = crumbs(path, t('Hubs'));

  return (
    <div className="d-flex flex-column gap-4 sw-design-cloud">
      <section className="card border-0 shadow-sm" aria-labelledby="adsk-browser-heading">
        <div className="card-header bg-transparent d-flex flex-wrap gap-2 align-items-center">
          <h2 id="adsk-browser-heading" className="h6 mb-0 flex-grow-1">
            {t('Autodesk files')}
          </h2>
          {level === 'projects' && (
            <div className="form-check form-switch mb-0">
              <input className="form-check-input" type="checkbox" role="switch" id="adsk-exclude" checked={!excludeExisting} onChange={(e) => setExcludeExisting(!e.target.checked)} />
              <label className="form-check-label small" htmlFor="adsk-exclude">
                {t('Show projects already in {site}')}
              </label>
            </div>
          )}
        </div>
        <div className="card-body">
          <nav aria-label={t('Breadcrumb')}>
            <ol className="breadcrumb flex-wrap mb-3" data-testid="adsk-breadcrumbs">
              {labels.map((label, i) =>
                i === labels.length - 1 ? (
                  <li key={i} className="breadcrumb-item active text-break" aria-current="page">
                    {label}
                  </li>
                ) : (
                  <li key={i} className="breadcrumb-item text-break">
                    <button type="button" className="btn btn-link p-0 align-baseline" onClick={() => setPath((p) => upTo(p, i - 1))}>
                      {label}
                    </button>
                  </li>
                ),
              )}
            </ol>
          </nav>
          {error ? (
            <div className="alert alert-danger d-flex flex-wrap gap-2 align-items-center" role="alert">
              <span className="flex-grow-1">{error}</span>
              <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void list.refetch()}>
                {t('Try again')}
              </button>
            </div>
          ) : rows === null ? (
            <Spinner />
          ) : rows.length === 0 ? (
            <p className="text-body-secondary mb-0" data-testid="adsk-empty">
              {t(EMPTY[level])}
            </p>
          ) : (
            <ul className="list-group" data-testid="adsk-list">
              {rows.map((row) => (
                <li key={row.id} className="list-group-item d-flex flex-wrap gap-2 align-items-center">
                  <RowView row={row} level={level} lang={i18n.language} onOpen={open} onSync={sync} onSheets={showSheets} hubId={hub?.id} />
                </li>
              ))}
            </ul>
          )}
          {manifest && <ManifestView name={manifest.name} urn={manifest.urn} onClose={() => setManifest(null)} />}
          {level === 'folders' && <AccSheets projectId={path.find((n) => n.kind === 'project')!.id} />}
        </div>
      </section>
      <SyncRuns runs={runs} />
    </div>
  );
}

const ICONS: Record<string, string> = { hubs: 'bi-diagram-3', projects: 'bi-building', folders: 'bi-folder', items: 'bi-file-earmark', versions: 'bi-clock-history' };

function RowView({
  row,
  level,
  lang,
  hubId,
  onOpen,
  onSync,
  onSheets,
}: {
  row: Row;
  level: Level;
  lang: string;
  hubId?: string;
  onOpen(n: PathNode): void;
  onSync(kind: 'hub' | 'project', id: string, hubId?: string): void;
  onSheets(name: string, urn: string): void;
}) {
  const { t } = useTranslation();
  const name = row.name;
  if (level === 'hubs') {
    return (
      <>
        <i className={`bi ${ICONS.hubs} text-body-secondary`} aria-hidden="true" />
        <button type="button" className="btn btn-link p-0 text-start text-break flex-grow-1" onClick={() => onOpen({ kind: 'hub', id: row.id, name })}>
          {name}
        </button>
        <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => onSync('hub', row.id)}>
          <i className="bi bi-cloud-download me-1" aria-hidden="true" />
          {t('Sync hub')}
        </button>
      </>
    );
  }
  if (level === 'projects') {
    const p = row as AdskProject;
    return (
      <>
        <i className={`bi ${ICONS.projects} text-body-secondary`} aria-hidden="true" />
        <button type="button" className="btn btn-link p-0 text-start text-break flex-grow-1" onClick={() => onOpen({ kind: 'project', id: p.id, name })}>
          {name}
        </button>
        {p.sitewalk_project_id && (
          <Link to={`/project/${p.sitewalk_project_id}`} className="badge text-bg-success text-decoration-none">
            {t('In {site}')}
          </Link>
        )}
        <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => onSync('project', p.id, hubId)}>
          <i className="bi bi-cloud-download me-1" aria-hidden="true" />
          {p.sitewalk_project_id ? t('Sync again') : t('Bring into {site}')}
        </button>
      </>
    );
  }
  if (level === 'versions') {
    const v = row as AdskVersion;
    return (
      <>
        <i className={`bi ${ICONS.versions} text-body-secondary`} aria-hidden="true" />
        <span className="flex-grow-1 text-break">
          {t('Version {n}', { n: v.version_number ?? '?' })} · {name}
          {v.created_at && <span className="text-body-secondary small ms-2">{formatDate(v.created_at, lang)}</span>}
        </span>
        {v.imported && <span className="badge text-bg-success">{t('In {site}')}</span>}
        {v.file_type !== 'pdf' && (
          <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => onSheets(name, v.urn)}>
            {t('Sheets')}
          </button>
        )}
      </>
    );
  }
  const e = row as AdskFolderEntry;
  const isFolder = e.type === 'folders';
  return (
    <>
      <i className={`bi ${isFolder ? ICONS.folders : ICONS.items} text-body-secondary`} aria-hidden="true" />
      <button type="button" className="btn btn-link p-0 text-start text-break flex-grow-1" onClick={() => onOpen({ kind: isFolder ? 'folder' : 'item', id: e.id, name })}>
        {name}
      </button>
      {!isFolder && e.version_number !== null && <span className="badge text-bg-light">{t('Version {n}', { n: e.version_number })}</span>}
      {!isFolder && e.file_type && e.file_type !== 'pdf' && e.version_id && (
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => onSheets(name, e.version_id!)}>
          {t('Sheets')}
        </button>
      )}
    </>
  );
}

function ManifestView({ name, urn, onClose }: { name: string; urn: string; onClose(): void }) {
  const { t } = useTranslation();
  const query = useManifestQuery(urn);
  const data = query.data ?? null;
  const error = query.isError ? errorMessage(query.error, MESSAGES.adskManifestFailed) : null;
  return (
    <div className="border rounded p-3 mt-3" data-testid="adsk-manifest" aria-live="polite">
      <div className="d-flex gap-2 align-items-center mb-2">
        <h3 className="h6 mb-0 flex-grow-1 text-break">{t('Sheets of {name}', { name })}</h3>
        <button type="button" className="btn-close" aria-label={t('Close')} onClick={onClose} />
      </div>
      {error ? (
        <div className="alert alert-danger mb-0">{error}</div>
      ) : !data ? (
        <Spinner size="sm" />
      ) : data.views_2d.length === 0 ? (
        <p className="text-body-secondary mb-0">{t('This model has no 2D sheets.')}</p>
      ) : (
        <ul className="mb-0">
          {data.views_2d.map((v) => (
            <li key={v.guid} className="text-break">
              {v.name} {!v.pdf_urn && <span className="text-body-secondary small">({t('no PDF')})</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The project's sheets as Autodesk Construction Cloud lists them (number and title). */
function AccSheets({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const query = useAccSheetsQuery(projectId, open);
  const sheets = query.data ?? null;
  const error = query.isError && !query.isFetching ? errorMessage(query.error, MESSAGES.adskSheetsFailed) : null;
  const load = () => setOpen(true);
  if (!open) {
    return (
      <button type="button" className="btn btn-sm btn-outline-secondary mt-3" onClick={load}>
        <i className="bi bi-layers me-1" aria-hidden="true" />
        {t('Project sheets')}
      </button>
    );
  }
  return (
    <div className="border rounded p-3 mt-3" data-testid="adsk-acc-sheets" aria-live="polite">
      <div className="d-flex gap-2 align-items-center mb-2">
        <h3 className="h6 mb-0 flex-grow-1">{t('Project sheets')}</h3>
        <button type="button" className="btn-close" aria-label={t('Close')} onClick={() => setOpen(false)} />
      </div>
      {error ? (
        <div className="alert alert-danger mb-0">{t(error)}</div>
      ) : !sheets ? (
        <Spinner size="sm" />
      ) : sheets.length === 0 ? (
        <p className="text-body-secondary mb-0">{t('This project has no sheets.')}</p>
      ) : (
        <ul className="mb-0">
          {sheets.map((sh) => (
            <li key={sh.id} className="text-break">
              <strong>{sh.number}</strong> {sh.title}
              {sh.version_set && <span className="text-body-secondary small ms-2">{sh.version_set}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const STATUS_LABELS: Record<AdskSyncRun['status'], string> = { queued: tk('Queued'), running: tk('Running'), completed: tk('Completed'), failed: tk('Failed') };

function SyncRuns({ runs }: { runs: AdskSyncRun[] }) {
  const { t } = useTranslation();
  return (
    <section className="card border-0 shadow-sm" aria-labelledby="adsk-syncs-heading">
      <div className="card-header bg-transparent">
        <h2 id="adsk-syncs-heading" className="h6 mb-0">
          {t('Syncs')}
        </h2>
      </div>
      <div className="card-body d-flex flex-column gap-3" aria-live="polite" data-testid="adsk-syncs">
        {runs.length === 0 ? (
          <p className="text-body-secondary mb-0">{t('No syncs yet. Sync a hub or bring a project into {site}.')}</p>
        ) : (
          runs.map((r) => (
            <div key={r.id} data-testid="adsk-sync-run" data-status={r.status}>
              <div className="d-flex flex-wrap gap-2 small mb-1">
                <strong>{r.kind === 'hub' ? t('Hub') : t('Project')}</strong>
                <span className="text-body-secondary">{t(STATUS_LABELS[r.status])}</span>
                <span className="text-break flex-grow-1">{r.message}</span>
              </div>
              <div
                className="progress"
                role="progressbar"
                aria-label={t('Sync progress')}
                aria-valuenow={r.percent}
                aria-valuemin={0}
                aria-valuemax={100}
              >
                <div className={`progress-bar ${r.status === 'failed' ? 'bg-danger' : r.status === 'completed' ? 'bg-success' : 'progress-bar-striped progress-bar-animated'}`} style={{ width: `${r.percent}%` }}>
                  {r.percent}%
                </div>
              </div>
              {r.status === 'completed' && r.project_ids.length > 0 && (
                <div className="small mt-1 d-flex flex-wrap gap-2">
                  {r.project_ids.map((id) => (
                    <Link key={id} to={`/project/${id}`}>
                      {t('Open project #{id}', { id })}
                    </Link>
                  ))}
                </div>
              )}
            </div>
          ))
        )}
      </div>
    </section>
  );
}
