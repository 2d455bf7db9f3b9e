import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type ControlPoint, type SheetSummary, type VideoCluster, type VideoDetail, type VideoProjection, type VisitDetail } from '@sitewalk/proto';
import { formatNumber } from '../../lib/format';
import { dismissToast, showToast } from '../../lib/toast';
import { controlMissesPx, fitQuality } from '../../lib/fit-quality';
import { tk } from '../../lib/i18n-keys';
import { viewerPath } from '../../lib/share-links';
import { IDENTITY, fitTwoPoints, mirrorAbout, overlayCentre, toDegrees, type Point, type Similarity } from '../../lib/projection-transform';
import { adjustPositions, isRunBusy } from '../../lib/video-run';
import { Spinner } from '../../components/spinner';
import { LabelledSelect } from '../../components/labelled-select';
import { useShownSheet } from '../../components/use-shown-sheet';
import type { EditorTool } from './projection-editor';
import { videoApi } from './video-api';
import { UnsurePlacement } from './unsure-placement';
import { FarControlPoint } from './far-control-point';

/**
 * The sheet of a part of the walk: the one the user chose for it, else the
 * sheet it was last laid on, else the visit's sheet.
 */
function sheetFor(cluster: number, chosen: Record<number, number>, projections: VideoProjection[], fallback: number | null): number | null {
  return chosen[cluster] ?? projections.filter((p) => p.osfm_cluster === cluster).at(-1)?.id_map ?? fallback;
}

const PointCloudView = lazy(() => import('./point-cloud-view'));
const ProjectionEditor = lazy(() => import('./projection-editor'));

const TOOLS: { tool: EditorTool; icon: string; label: string }[] = [
  { tool: 'pan', icon: 'bi-hand-index', label: tk('Pan the sheet') },
  { tool: 'move', icon: 'bi-arrows-move', label: tk('Move') },
  { tool: 'rotate', icon: 'bi-arrow-repeat', label: tk('Rotate') },
  { tool: 'scale', icon: 'bi-arrows-angle-expand', label: tk('Scale') },
  { tool: 'points', icon: 'bi-geo-alt', label: tk('Start and end') },
];

const TOOL_HINT: Record<EditorTool, string> = {
  pan: tk('Drag the sheet to look around; the walk stays where it is.'),
  move: tk('Drag to move the walk over the sheet.'),
  rotate: tk('Drag around the walk to turn it.'),
  scale: tk('Drag away from the walk’s centre to make it bigger, towards it to make it smaller.'),
  points: tk('Click where the walk started (green), then where it ended (red).'),
};

interface Props {
  visit: VisitDetail;
  video: VideoDetail;
  sheets: SheetSummary[];
  onVideo(v: VideoDetail): void;
}

/**
 * After the point cloud: pick the part of the walk (cluster) and the sheet,
 * see the cloud in 3D, lay the walk on the sheet (the server's proposal),
 * adjust it by hand or by two clicks, and confirm — the rooms are made and
 * placed. Each cluster is projected and confirmed on its own.
 */
export function ProjectionPanel({ visit, video, sheets, onVideo }: Props) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatNumber(v, i18n.language);
  const { clusters, projections, keyframes } = video.run.artifacts;
  const [clusterNo, setClusterNo] = useState<number>(clusters[0]?.osfm_cluster ?? 0);
  // The sheet is chosen per part of the walk: a walk that took the stairs has one part per floor, each on its own sheet.
  const [sheetChoice, setSheetChoice] = useState<Record<number, number>>({});
  const [adjust, setAdjust] = useState<Similarity>(IDENTITY);
  const [tool, setTool] = useState<EditorTool>('move');
  const [picks, setPicks] = useState<Point[]>([]);
  const [busy, setBusy] = useState(false);
  const [show3d, setShow3d] = useState(true);
  /** The "Placing the rooms…" toast is up until the step ends (the stepper says how it ended). */
  const [placing, setPlacing] = useState(false);
  /** The keyframe the user is pinning on the sheet: one more control point where the placement is unsure, or a marked one again. */
  const [pinning, setPinning] = useState<number | null>(null);

  useEffect(() => {
    if (!clusters.some((c) => c.osfm_cluster === clusterNo) && clusters[0]) setClusterNo(clusters[0].osfm_cluster);
  }, [clusters, clusterNo]);
  const sheetId = sheetFor(clusterNo, sheetChoice, projections, visit.id_map ?? sheets[0]?.id ?? null);
  const setSheetId = (id: number) => setSheetChoice((c) => ({ ...c, [clusterNo]: id }));
  const partName = (c: VideoCluster, i: number) =>
    c.level?.kind === 'stairs' ? t('Stairs') : c.level?.floor != null ? t('Floor {n}', { n: n(c.level.floor + 1) }) : t('Part {n}', { n: n(i + 1) });
  const hasFloors = clusters.some((c) => c.level);

  const sheet = useShownSheet(sheetId, visit.maps);

  const cluster = clusters.find((c) => c.osfm_cluster === clusterNo) ?? null;
  const projection = projections.find((p) => p.osfm_cluster === clusterNo && p.id_map === sheetId) ?? null;
  // A new proposal from the server (another fit, other control points) replaces any adjustment made on the old one.
  const projectionKey = projection
    ? `${projection.osfm_cluster}:${projection.id_map}:${projection.preview_url ?? ''}:${projection.positions.length}:${projection.positions[0]?.x},${projection.positions[0]?.y}:${projection.control_points.map((c) => `${c.keyframe},${c.x},${c.y}`).join(';')}`
    : '';
  useEffect(() => {
    setAdjust(IDENTITY);
    setPicks([]);
    setPinning(null);
  }, [projectionKey]);

  const busyRun = isRunBusy(video.run);
  const runningHere = busyRun && (video.run.step === 'project-points' || video.run.step === 'confirm-projection');
  useEffect(() => {
    if (!placing || busyRun) return;
    dismissToast('info', t('Placing the rooms…'));
    setPlacing(false);
  }, [placing, busyRun, t]);
  const adjusted = adjust !== IDENTITY;
  const positions = projection?.positions ?? [];
  const pivot = useMemo(() => overlayCentre(adjust, positions), [adjust, positions]);
  const sheetName = sheets.find((s) => s.id === sheetId)?.name ?? sheet?.name ?? '';
  const fit = fitQuality({
    residualPx: projection?.residual_px,
    sheet: { width: sheet?.width ?? null, height: sheet?.height ?? null },
    metric: projection?.certainty ? { pxPerMetre: projection.certainty.px_per_metre, thresholdM: projection.certainty.threshold_m } : null,
    missesPx: projection ? controlMissesPx(projection.positions, projection.control_points) : [],
  });
  // Rooms SiteWalk cannot vouch for (only for the server's own proposal: a hand adjustment is the user's call).
  const certainty = projection && !projection.confirmed_at && !adjusted ? (projection.certainty ?? null) : null;
  const unsure = useMemo(() => new Set(certainty?.unsure ?? []), [certainty]);
  const suggested = certainty?.suggested_keyframe ?? null;
  const suggestedFrame = suggested === null ? null : (keyframes.find((k) => k.index === suggested) ?? null);
  // The marked point the walk passes far from (the server's own proposal only, as for the unsure rooms).
  const far = projection && !projection.confirmed_at && !adjusted && fit?.quality === 'check' && fit.worstIndex !== null && fit.worstM !== null ? { point: projection.control_points[fit.worstIndex], distanceM: fit.worstM } : null;
  const farFrame = far ? (keyframes.find((k) => k.index === far.point.keyframe) ?? null) : null;

  /** Asks the server for a proposal; with control points (sheet pixels) it fits the walk to them, from the reconstruction itself. */
  const project = async (controlPoints?: ControlPoint[]) => {
    if (!sheet || sheetId === null || !sheet.width || !sheet.height) return;
    setBusy(true);
    try {
      const body = { id_map: sheetId, id_visit: visit.id, osfmCluster: clusterNo, imageWidth: sheet.width, imageHeight: sheet.height };
      onVideo(await videoApi.projectPoints(controlPoints ? { ...body, control_points: controlPoints } : body));
    } catch (err) {
      showToast('error', t((err as Error).message || MESSAGES.projectPointsFailed));
    } finally {
      setBusy(false);
    }
  };

  const confirmProjection = async () => {
    if (!projection) return;
    setBusy(true);
    try {
      const body = { id_map: projection.id_map, id_visit: visit.id, osfmCluster: projection.osfm_cluster, ...(adjusted ? { positions: adjustPositions(projection.positions, adjust) } : {}) };
      onVideo(await videoApi.confirm(body));
      showToast('info', t('Placing the rooms…'));
      setPlacing(true);
    } catch (err) {
      showToast('error', t((err as Error).message || MESSAGES.projectPointsFailed));
    } finally {
      setBusy(false);
    }
  };

  const onPick = (p: Point) => {
    if (pinning !== null && projection) {
      // One more control point: the proposal's own control points stay, the new one joins them, and the server fits again.
      const keyframe = pinning;
      setPinning(null);
      setTool('move');
      void project([...projection.control_points.filter((c) => c.keyframe !== keyframe), { keyframe, x: p.x, y: p.y }]);
      return;
    }
    if (positions.length < 2) return;
    const next = picks.length >= 2 ? [p] : [...picks, p];
    setPicks(next);
    if (next.length === 2) {
      const first = positions[0];
      const last = positions[positions.length - 1];
      const fit = fitTwoPoints(first, last, next[0], next[1], adjust.mirror);
      if (!fit) {
        showToast('warning', t('The walk starts and ends at the same place: move it by hand instead.'));
        return;
      }
      // Shown at once; the server then fits the walk itself to the two points (its floor and camera path, not
      // the proposal's rounded dots) and its new proposal replaces this one. A mirrored walk stays a hand fit:
      // the server's fit never mirrors.
      setAdjust(fit);
      if (!fit.mirror && video.can_edit && projection) {
        void project([
          { keyframe: first.keyframe, x: next[0].x, y: next[0].y },
          { keyframe: last.keyframe, x: next[1].x, y: next[1].y },
        ]);
      }
    }
  };

  if (clusters.length === 0) return null;

  return (
    <>
      <section className="card border-0 shadow-sm" aria-labelledby="cloud-heading" data-testid="point-cloud-card">
        <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
          <h2 id="cloud-heading" className="h6 mb-0 me-auto">
            {t('Point cloud')}
          </h2>
          {clusters.length > 1 && (
            <div className="d-flex align-items-center gap-2">
              <label htmlFor="video-cluster" className="small mb-0">
                {t('Part of the walk')}
              </label>
              <select id="video-cluster" className="form-select form-select-sm w-auto mw-100" value={clusterNo} onChange={(e) => setClusterNo(Number(e.target.value))} data-testid="cluster-select">
                {clusters.map((c, i) => (
                  <option key={c.osfm_cluster} value={c.osfm_cluster}>
                    {c.level ? t('{part}: {rooms} rooms', { count: c.keyframes.length, part: partName(c, i), rooms: n(c.keyframes.length) }) : t('Part {n}: {rooms} rooms', { count: c.keyframes.length, n: n(i + 1), rooms: n(c.keyframes.length) })}
                  </option>
                ))}
              </select>
            </div>
          )}
          <button type="button" className="btn btn-sm btn-outline-secondary" aria-expanded={show3d} aria-controls="point-cloud-body" onClick={() => setShow3d((s) => !s)}>
            {show3d ? t('Hide the 3D view') : t('Show the 3D view')}
          </button>
        </div>
        <div className="card-body" id="point-cloud-body">
          {clusters.length > 1 && (
            <p className="small text-body-secondary" data-testid="parts-hint">
              {hasFloors
                ? t('The walk took the stairs: each floor is a part of its own. Choose the sheet of each floor and lay it there with its own control points.')
                : t('The reconstruction came out in {n} parts. Lay each part on the sheet and confirm it on its own.', { n: n(clusters.length) })}
            </p>
          )}
          {cluster && (
            <p className="small text-body-secondary mb-2">
              {t('{rooms} rooms along the walk, {points} points.', { rooms: n(cluster.keyframes.length), points: n(cluster.points) })}
              {keyframes.length > cluster.keyframes.length && ` ${t('{n} frames could not be placed in this part.', { count: keyframes.length - cluster.keyframes.length, n: n(keyframes.length - cluster.keyframes.length) })}`}
            </p>
          )}
          {show3d && cluster?.ply_url && (
            <Suspense fallback={<Spinner />}>
              <PointCloudView plyUrl={cluster.ply_url} pathUrl={cluster.path_url} label={t('Point cloud of part {n} of the walk', { n: n(clusters.indexOf(cluster) + 1) })} />
            </Suspense>
          )}
        </div>
      </section>

      <section className="card border-0 shadow-sm" aria-labelledby="projection-heading" data-testid="projection-card">
        <div className="card-header bg-transparent">
          <h2 id="projection-heading" className="h6 mb-0">
            {t('Lay the walk on the sheet')}
          </h2>
        </div>
        <div className="card-body d-flex flex-column gap-3">
          {sheets.length === 0 ? (
            <div className="sw-empty-state py-3" data-testid="projection-no-sheet">
              <i className="bi bi-map d-block mb-2" aria-hidden="true" />
              <p className="mb-3">{t('This project has no sheet yet. Upload its PDF plans first.')}</p>
              <Link to={`/project/${visit.id_project}`} className="btn btn-primary btn-sm">
                {t('Open project')}
              </Link>
            </div>
          ) : (
            <div className="d-flex flex-wrap align-items-end gap-2">
              <LabelledSelect
                id="projection-sheet"
                small
                label={clusters.length > 1 && cluster ? t('Sheet for {part}', { part: partName(cluster, clusters.indexOf(cluster)) }) : t('Sheet')}
                value={sheetId ?? ''}
                options={sheets.map((s) => ({ value: s.id, label: s.name }))}
                onChange={(v) => setSheetId(Number(v))}
              />
              {video.can_edit && (
                <button type="button" className="btn btn-sm btn-primary" onClick={() => void project()} disabled={busy || busyRun || !sheet}>
                  <i className="bi bi-layers me-1" aria-hidden="true" />
                  {projection ? t('Lay it out again') : t('Lay the walk on this sheet')}
                </button>
              )}
              {runningHere && (
                <span className="small text-body-secondary align-self-center">
                  <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
                  {t('Working…')}
                </span>
              )}
            </div>
          )}

          {projection && sheet && (
            <>
              {certainty && unsure.size > 0 && (
                <UnsurePlacement
                  rooms={unsure.size}
                  worstM={certainty.worst_m}
                  thresholdM={certainty.threshold_m}
                  frame={suggestedFrame}
                  pinning={suggested !== null && pinning === suggested}
                  canEdit={video.can_edit}
                  disabled={busy || busyRun}
                  onPin={() => {
                    setPinning(suggested);
                    setPicks([]);
                  }}
                  onCancel={() => setPinning(null)}
                />
              )}
              {far && farFrame && (
                <FarControlPoint
                  frame={farFrame}
                  distanceM={far.distanceM}
                  pinning={pinning === far.point.keyframe}
                  canEdit={video.can_edit}
                  disabled={busy || busyRun}
                  onRepin={() => {
                    setPinning(far.point.keyframe);
                    setPicks([]);
                  }}
                  onCancel={() => setPinning(null)}
                />
              )}
              {video.can_edit && (
                <div className="d-flex flex-wrap gap-2 align-items-center">
                  <div className="btn-group btn-group-sm flex-wrap sw-tool-group" role="group" aria-label={t('Tools')}>
                    {TOOLS.map((x) => (
                      <button key={x.tool} type="button" className={`btn ${tool === x.tool ? 'btn-primary' : 'btn-outline-primary'}`} aria-pressed={tool === x.tool} onClick={() => { setTool(x.tool); setPinning(null); if (x.tool === 'points') setPicks([]); }}>
                        <i className={`bi ${x.icon} me-1`} aria-hidden="true" />
                        {t(x.label)}
                      </button>
                    ))}
                  </div>
                  <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setAdjust((a) => mirrorAbout(a, pivot))} aria-pressed={adjust.mirror}>
                    <i className="bi bi-symmetry-horizontal me-1" aria-hidden="true" />
                    {t('Mirror')}
                  </button>
                  <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => { setAdjust(IDENTITY); setPicks([]); }} disabled={!adjusted && picks.length === 0}>
                    <i className="bi bi-arrow-counterclockwise me-1" aria-hidden="true" />
                    {t('Back to the proposal')}
                  </button>
                </div>
              )}
              <p className="small text-body-secondary mb-0" aria-live="polite" data-testid="projection-hint">
                {pinning !== null ? `${t('Click on the sheet where the highlighted room’s photo was taken.')} ${t('Without a mouse: bring that place to the middle of the sheet and press Enter on it.')}` : t(TOOL_HINT[tool])}{' '}
                {adjusted && t('Turned {deg}°, scaled {percent}%.', { deg: n(toDegrees(adjust.rotation)), percent: n(Math.round(adjust.scale * 100)) })}
              </p>
              <Suspense fallback={<Spinner />}>
                <ProjectionEditor
                  sheet={sheet}
                  positions={projection.positions}
                  // Once confirmed, the positions are the adjusted ones and the proposal's picture no longer matches them.
                  previewUrl={projection.confirmed_at ? null : projection.preview_url}
                  value={adjust}
                  onChange={setAdjust}
                  tool={video.can_edit ? (pinning !== null ? 'points' : tool) : 'pan'}
                  unsure={unsure}
                  target={pinning ?? suggested}
                  picks={picks}
                  onPick={onPick}
                  label={t('The walk laid over sheet {name}', { name: sheetName })}
                />
              </Suspense>
              <div className="d-flex flex-wrap align-items-center gap-2">
                <span className="small text-body-secondary me-auto" data-testid="projection-summary">
                  {t('{n} rooms will be placed on {sheet}.', { count: projection.positions.length, n: n(projection.positions.length), sheet: sheetName })}
                  {fit && (
                    <span data-testid="fit-quality" data-quality={fit.quality}>
                      {` ${
                        fit.quality === 'good'
                          ? t('The walk fits the points you marked well.')
                          : fit.worstM !== null
                            ? t('The walk passes {m} m from a point you marked: check the points.', { m: n(Math.round(fit.worstM * 10) / 10) })
                            : t('The walk and the points you marked disagree: check the points.')
                      }`}
                    </span>
                  )}
                  {projection.fitted_by === 'plan' && ` ${t("Snapped to the plan's walls.")}`}
                  {certainty && unsure.size === 0 && ` ${t('Every room is placed within {m} m.', { m: n(Math.max(0.1, Math.ceil(certainty.worst_m * 10) / 10)) })}`}
                </span>
                {video.can_edit && (
                  <button type="button" className="btn btn-success" onClick={() => void confirmProjection()} disabled={busy || busyRun || projection.positions.length === 0}>
                    <i className="bi bi-check2-circle me-1" aria-hidden="true" />
                    {projection.confirmed_at ? t('Confirm again') : t('Confirm and place the rooms')}
                  </button>
                )}
              </div>
              {projection.confirmed_at && (
                <div className="alert alert-success d-flex flex-wrap align-items-center gap-2 mb-0" role="status" data-testid="projection-confirmed">
                  <span className="me-auto">{t('{n} rooms are placed on {sheet}.', { count: projection.room_ids.length, n: n(projection.room_ids.length), sheet: sheetName })}</span>
                  <Link to={`/visitsheet/${visit.id}?map=${projection.id_map}`} className="btn btn-sm btn-outline-success">
                    <i className="bi bi-pin-map me-1" aria-hidden="true" />
                    {t('See the rooms on the sheet')}
                  </Link>
                  <a href={viewerPath(visit.code)} target="_blank" rel="noopener" className="btn btn-sm btn-outline-success">
                    <i className="bi bi-play-circle me-1" aria-hidden="true" />
                    {t('Open in the viewer')}
                  </a>
                </div>
              )}
            </>
          )}
        </div>
      </section>
    </>
  );
}
