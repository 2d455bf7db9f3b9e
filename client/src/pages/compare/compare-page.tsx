import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type Room, type VisitDetail } from '@sitewalk/proto';
import { ApiError } from '../../lib/api-client';
import { counterpart, defaultPair, matchingView, nearestRoom, viewsDiffer, visitNearestDate, type ViewAngles } from '../../lib/compare-rooms';
import { Spinner } from '../../components/spinner';
import PanoramaViewer, { type PanoramaHandle, type TourRoom } from '../../components/panorama/panorama-viewer';
import NotFoundPage from '../not-found/not-found-page';
import { formatDay } from '../../lib/format';
import { useVisitQuery } from '../../components/use-visit-query';
import { useSheetQuery } from '../../components/use-sheet-query';
import { useSheetVisitsQuery } from './use-sheet-visits-query';
import '../projects/projects.css';
import '../visits/visits.css';

const SheetRoomsMap = lazy(() => import('../sheet/sheet-rooms-map'));

type Side = 'left' | 'right';

const positiveInt = (s: string | null | undefined) => (s && /^[1-9]\d{0,9}$/.test(s) ? Number(s) : null);

/** The ready rooms of a visit placed on this sheet. */
const placedRooms = (v: VisitDetail | null, sheetId: number) =>
  (v?.rooms ?? []).filter((r): r is Room & { panorama: NonNullable<Room['panorama']> } => r.status === 'ready' && !!r.panorama && r.id_map === sheetId && r.x !== null && r.y !== null);

const asTour = (r: Room & { panorama: NonNullable<Room['panorama']> }): TourRoom => ({ id: r.id, name: r.name, panorama: r.panorama, hotspots: [], thumbnail_url: r.thumbnail_url });

/**
 * /compare/{id}: two visits of one sheet (id = the sheet) side by side, at
 * the two rooms nearest the same place, turning together (yaw, pitch and
 * zoom, corrected by the rooms' headings), to see what changed between two
 * dates. Each side picks its visit by date among all the sheet's visits (read
 * page after page); a click on the sheet picks the place.
 */
export default function ComparePage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const sheetId = positiveInt(id);
  const [params, setParams] = useSearchParams();
  const sheetQuery = useSheetQuery(sheetId);
  const visitsQuery = useSheetVisitsQuery(sheetId);
  const sheet = sheetQuery.data ?? null;
  const visits = useMemo(() => visitsQuery.data ?? [], [visitsQuery.data]);
  const [place, setPlace] = useState<{ x: number; y: number } | null>(null);
  const panes = { left: useRef<PanoramaHandle>(null), right: useRef<PanoramaHandle>(null) };

  const pair = defaultPair(visits);
  const leftId = positiveInt(params.get('left')) ?? pair?.[0].id ?? visits[0]?.id ?? null;
  const rightId = positiveInt(params.get('right')) ?? (pair ? (pair[1].id === leftId ? pair[0].id : pair[1].id) : null);

  const leftVisit = useVisitQuery(leftId);
  const rightVisit = useVisitQuery(rightId);
  // A side whose visit could not be read keeps its spinner.
  useEffect(() => void (leftVisit.error && console.warn(leftVisit.error)), [leftVisit.error]);
  useEffect(() => void (rightVisit.error && console.warn(rightVisit.error)), [rightVisit.error]);
  const details = { left: leftVisit.data ?? null, right: rightVisit.data ?? null };

  const leftRooms = useMemo(() => (sheetId ? placedRooms(details.left, sheetId) : []), [details.left, sheetId]);
  const rightRooms = useMemo(() => (sheetId ? placedRooms(details.right, sheetId) : []), [details.right, sheetId]);
  const leftRoom = (place ? nearestRoom(leftRooms, place.x, place.y) : null) ?? leftRooms[0] ?? null;
  const rightRoom = counterpart(leftRoom, rightRooms);
  const leftTour = useMemo(() => leftRooms.map(asTour), [leftRooms]);
  const rightTour = useMemo(() => rightRooms.map(asTour), [rightRooms]);

  const rooms = { left: leftRoom, right: rightRoom };
  const roomsRef = useRef(rooms);
  roomsRef.current = rooms;
  // The side the user turns drives the other; the echo of a programmatic turn matches and stops.
  const follow = (from: Side) => (view: ViewAngles) => {
    const to: Side = from === 'left' ? 'right' : 'left';
    const a = roomsRef.current[from];
    const b = roomsRef.current[to];
    const other = panes[to].current;
    if (!a || !b || !other) return;
    const wanted = matchingView(view, a, b);
    const now = other.view();
    if (!now || viewsDiffer(now, wanted)) other.setView(wanted);
  };

  const choose = (side: Side, visitId: number) => {
    const next = new URLSearchParams(params);
    next.set('left', String(side === 'left' ? visitId : leftId ?? ''));
    next.set('right', String(side === 'right' ? visitId : rightId ?? ''));
    setParams(next, { replace: true });
  };

  const failed = sheetQuery.error ?? visitsQuery.error;
  const refused = failed instanceof ApiError && (failed.status === 404 || failed.status === 403);
  if (sheetId === null || refused) return <NotFoundPage />;
  if (!failed && (sheetQuery.isPending || visitsQuery.isPending)) return <Spinner size="lg" />;
  if (failed || !sheet) {
    return (
      <div className="alert alert-danger d-flex align-items-center gap-2" role="alert">
        <span className="me-auto">{t(failed?.message || MESSAGES.fetchVisitsFailed)}</span>
        <button
          type="button"
          className="btn btn-sm btn-outline-danger"
          onClick={() => {
            void sheetQuery.refetch();
            void visitsQuery.refetch();
          }}
        >
          {t('Try again')}
        </button>
      </div>
    );
  }

  if (visits.length < 2) {
    return (
      <div className="card border-0 shadow-sm sw-empty-state" data-testid="compare-empty">
        <i className="bi bi-layout-split d-block mb-2" aria-hidden="true" />
        <p className="mb-3">{t('Two visits of the sheet {name} are needed to compare two dates.', { name: sheet.name })}</p>
        <div>
          <Link to={`/visits/${sheet.id_project}`} className="btn btn-primary">
            {t('Back to the visits')}
          </Link>
        </div>
      </div>
    );
  }

  const sheetDots = [
    ...leftRooms.map((r) => ({ id: r.id, name: r.name, x: r.x, y: r.y, heading: r.heading, tone: 'a' as const })),
    ...rightRooms.map((r) => ({ id: r.id, name: r.name, x: r.x, y: r.y, heading: r.heading, tone: 'b' as const })),
  ];

  const pane = (side: Side, visitId: number | null, room: Room | null, tour: TourRoom[]) => {
    const waiting = visitId !== null && !details[side];
    const v = visits.find((x) => x.id === visitId) ?? null;
    const label = side === 'left' ? t('First date') : t('Second date');
    return (
      <section aria-label={label} data-testid={`compare-${side}`}>
        <div className="d-flex flex-wrap align-items-end gap-2 mb-1">
          <div className="flex-grow-1">
            <label htmlFor={`compare-${side}-visit`} className="form-label small mb-0">
              <span className={`sw-tone-dot me-1 tone-${side === 'left' ? 'a' : 'b'}`} aria-hidden="true" />
              {label}
            </label>
            <select id={`compare-${side}-visit`} className="form-select form-select-sm" value={visitId ?? ''} onChange={(e) => choose(side, Number(e.target.value))}>
              {visits.map((x) => (
                <option key={x.id} value={x.id}>
                  {formatDay(x.date, i18n.language)} — {x.name}
                </option>
              ))}
            </select>
          </div>
          <input
            type="date"
            className="form-control form-control-sm w-auto"
            aria-label={t('Date of the visit')}
            value={v?.date ?? ''}
            onChange={(e) => {
              const near = visitNearestDate(visits, e.target.value);
              if (near) choose(side, near.id);
            }}
          />
        </div>
        <div className="sw-pano-frame">
          {room ? (
            <PanoramaViewer
              key={`${visitId}`}
              rooms={tour}
              roomId={room.id}
              onViewChange={follow(side)}
              label={t('360° view of {name}, {date}', { name: room.name, date: v ? formatDay(v.date, i18n.language) : '' })}
              linkLabel={(name) => t('Go to {name}', { name })}
              handleRef={panes[side]}
              testId={`compare-pano-${side}`}
            />
          ) : (
            <div className="d-flex h-100 align-items-center justify-content-center bg-body-secondary p-3 text-center small" data-testid={waiting ? undefined : 'compare-no-room'}>
              {waiting ? <Spinner /> : t('No room of this visit is placed on this sheet.')}
            </div>
          )}
        </div>
        {room && <div className="small text-body-secondary mt-1 text-truncate">{room.name}</div>}
      </section>
    );
  };

  return (
    <div className="d-flex flex-column gap-3" data-testid="compare-page">
      <div className="d-flex flex-wrap align-items-center gap-2">
        <h2 className="h5 mb-0 me-auto text-break">{sheet.name}</h2>
        <Link to={`/visits/${sheet.id_project}`} className="btn btn-outline-secondary btn-sm">
          <i className="bi bi-badge-vr me-1" aria-hidden="true" />
          {t('Back to the visits')}
        </Link>
      </div>
      <div className="sw-compare-panes">
        {pane('left', leftId, leftRoom, leftTour)}
        {pane('right', rightId, rightRoom, rightTour)}
      </div>
      <section aria-labelledby="compare-sheet-heading">
        <h3 id="compare-sheet-heading" className="h6">
          {t('Click the sheet to compare another place')}
        </h3>
        <Suspense fallback={<Spinner />}>
          <SheetRoomsMap
            sheet={sheet}
            rooms={sheetDots}
            currentRoomId={leftRoom?.id ?? null}
            onSelect={(rid) => {
              const r = sheetDots.find((d) => d.id === rid);
              if (r && r.x !== null && r.y !== null) setPlace({ x: r.x, y: r.y });
            }}
            onSheetClick={(x, y) => setPlace({ x, y })}
            label={t('Sheet {name} with the rooms of both visits', { name: sheet.name })}
            className="sw-compare-sheet"
          />
        </Suspense>
      </section>
    </div>
  );
}
