import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Dropdown } from 'react-bootstrap';
import type { Poi } from '@sitewalk/proto';
import { ApiError } from '../../lib/api-client';
import { shareLinks, viewerPath } from '../../lib/share-links';
import { formatDay } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { useSettings } from '../../stores/settings.store';
import { Spinner } from '../../components/spinner';
import type { PanoramaHandle, TourMarker } from '../../components/panorama/panorama-viewer';
import { PoiPanel } from './poi-panel';
import { useVisitSnags } from '../../components/snags/use-visit-snags';
import { dropBootedViewer, positiveInt, startRoomId } from './viewer-preload';
import { VIEWER_LOAD_FAILED, useViewerRoomPoisQuery, useViewerVisitQuery } from './use-viewer-queries';
import './viewer.css';
import { MENU_INSIDE_SCREEN } from '../../lib/menu-popper';

// Leaflet loads only when the visit has a sheet to show.
const SheetRoomsMap = lazy(() => import('../sheet/sheet-rooms-map'));
// Photo Sphere Viewer and three.js (the biggest chunk) start loading with the page and
// arrive while the visit is being read, instead of before the read can start.
const loadPanorama = () => import('../../components/panorama/panorama-viewer');
const PanoramaViewer = lazy(loadPanorama);

/**
 * /viewer/{code}/{room?}/{poi?}: the public visit viewer (no sign-in). Opens
 * at the given room (else the visit's first) and point of interest; walks
 * through hotspots; shows points of interest, where one stands on the floor
 * sheet and which way one looks, and share buttons.
 */
export default function ViewerPage() {
  const { code = '' } = useParams();
  // Another visit's code (a link followed inside the app) opens that visit afresh, at its own room and point.
  return <VisitViewer key={code} code={code} />;
}

function VisitViewer({ code }: { code: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { room: roomParam, poi: poiParam } = useParams();
  const settings = useSettings();
  const askedRoom = useRef(positiveInt(roomParam));
  const askedPoi = useRef(positiveInt(poiParam));
  const visitQuery = useViewerVisitQuery(code, askedPoi.current);
  const visit = visitQuery.data ?? null;
  // The room and the point of interest the user chose; until then, those the visit opens at.
  const [roomChoice, setRoomId] = useState<number | null>(null);
  const [poiChoice, setOpenPoi] = useState<Poi | null | undefined>(undefined);
  const roomId = roomChoice ?? (visit ? startRoomId(visit, askedRoom.current) : null);
  const openPoi = poiChoice === undefined ? (visit?.poi ?? null) : poiChoice;
  const [yaw, setYaw] = useState<number | null>(null);
  const [sheetOpen, setSheetOpen] = useState(() => typeof window === 'undefined' || window.innerWidth >= 768);
  const pano = useRef<PanoramaHandle>(null);
  const yawFrame = useRef(0);
  // Where the 360 view first looks: at the point of interest of the address.
  const initialView = useMemo(() => (visit?.poi ? { yaw: visit.poi.yaw, pitch: visit.poi.pitch } : undefined), [visit]);

  useEffect(() => void loadPanorama(), []);

  const missing = visitQuery.error instanceof ApiError && visitQuery.error.status === 404;
  const room = visit?.rooms.find((r) => r.id === roomId) ?? null;
  // The early sphere (made before the app ran) goes when no 360 view takes it: an error, a visit without rooms, another page.
  const showsNoRoom = visitQuery.isError || (!!visit && !room);
  useEffect(() => {
    if (showsNoRoom) dropBootedViewer();
  }, [showsNoRoom]);
  useEffect(
    () => () => {
      if (!window.location.pathname.startsWith('/viewer/')) dropBootedViewer();
    },
    [],
  );

  // The points of interest of the room on screen.
  const poisQuery = useViewerRoomPoisQuery(visit?.code ?? null, roomId);
  const pois = useMemo(() => poisQuery.data ?? [], [poisQuery.data]);

  // The address follows the room (and the point of interest open), so it can be shared as it is.
  useEffect(() => {
    if (!visit || roomId === null) return;
    const path = viewerPath(visit.code, roomId, openPoi && openPoi.id_room === roomId ? openPoi.id : null);
    if (path !== window.location.pathname) navigate(path, { replace: true });
  }, [visit, roomId, openPoi, navigate]);

  // Snags: only for signed-in people of the project.
  const snags = useVisitSnags({ code, roomId, pano, goToRoom: setRoomId });
  const markers = useMemo<TourMarker[]>(
    () => [
      ...pois.map<TourMarker>((p) => ({ id: `poi-${p.id}`, yaw: p.yaw, pitch: p.pitch, title: p.title, label: t('Point of interest: {title}', { title: p.title }), kind: 'poi' })),
      ...snags.markers,
    ],
    [pois, snags.markers, t],
  );
  const sheet = room?.id_map ? (visit?.maps.find((m) => m.id === room.id_map) ?? null) : null;
  const sheetRooms = useMemo(
    () => (visit && sheet ? visit.rooms.filter((r) => r.id_map === sheet.id).map((r) => ({ id: r.id, name: r.name, x: r.x, y: r.y, heading: r.heading, mark: String(r.position + 1) })) : []),
    [visit, sheet],
  );

  if (visitQuery.isPending) return <Spinner size="lg" fullPage />;
  if (visitQuery.isError) {
    return (
      <div className="sw-fullpage-center p-3">
        <div className="card border-0 shadow-sm sw-empty-state" style={{ maxWidth: '30rem' }} data-testid="viewer-missing">
          <i className="bi bi-badge-vr d-block mb-2" aria-hidden="true" />
          <h1 className="h5">{missing ? t('This visit does not exist or is no longer shared.') : t(visitQuery.error.message || VIEWER_LOAD_FAILED)}</h1>
          {!missing && (
            <div className="mt-2">
              <button type="button" className="btn btn-outline-primary" onClick={visitQuery.retry}>
                {t('Try again')}
              </button>
            </div>
          )}
        </div>
      </div>
    );
  }
  const v = visitQuery.data;
  const url = `${window.location.origin}${viewerPath(v.code, roomId)}`;
  const links = shareLinks(settings.share_providers, url, v.name);
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(url);
      showToast('success', t('Link copied.'));
    } catch {
      showToast('info', url);
    }
  };
  const onView = (view: { yaw: number }) => {
    cancelAnimationFrame(yawFrame.current);
    yawFrame.current = requestAnimationFrame(() => setYaw(view.yaw));
  };

  return (
    <div className="sw-viewer" data-testid="viewer-page">
      <header className="sw-viewer-bar d-flex flex-wrap align-items-center gap-2 px-2 py-1">
        <div className="min-w-0 me-auto">
          <h1 className="h6 mb-0 text-truncate" data-testid="viewer-title">
            {v.name}
          </h1>
          <div className="small text-body-secondary text-truncate">
            <bdi>{v.project_name}</bdi> · <time dateTime={v.date}>{formatDay(v.date, i18n.language)}</time>
          </div>
        </div>
        {v.rooms.length > 1 && (
          <select
            className="form-select form-select-sm sw-viewer-rooms"
            aria-label={t('Room')}
            value={roomId ?? ''}
            onChange={(e) => setRoomId(Number(e.target.value))}
            data-testid="viewer-room-select"
          >
            {v.rooms.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        )}
        {snags.toolbar}
        {sheet && (
          <button
            type="button"
            className={`btn btn-sm ${sheetOpen ? 'btn-secondary' : 'btn-outline-secondary'}`}
            aria-pressed={sheetOpen}
            onClick={() => setSheetOpen((o) => !o)}
            title={t('Floor sheet')}
          >
            <i className="bi bi-map" aria-hidden="true" />
            <span className="visually-hidden">{t('Floor sheet')}</span>
          </button>
        )}
        <Dropdown align="end">
          <Dropdown.Toggle size="sm" variant="primary" id="viewer-share" data-testid="viewer-share">
            <i className="bi bi-share me-1" aria-hidden="true" />
            {t('Share')}
          </Dropdown.Toggle>
          <Dropdown.Menu popperConfig={MENU_INSIDE_SCREEN}>
            <Dropdown.Item as="button" onClick={() => void copyLink()}>
              <i className="bi bi-link-45deg me-2" aria-hidden="true" />
              {t('Copy link')}
            </Dropdown.Item>
            {links.map((l) => (
              <Dropdown.Item key={l.provider} href={l.href} target="_blank" rel="noopener noreferrer" data-provider={l.provider}>
                <i className={`bi ${l.icon} me-2`} aria-hidden="true" />
                {l.provider === 'email' ? t('E-mail') : l.name}
              </Dropdown.Item>
            ))}
          </Dropdown.Menu>
        </Dropdown>
      </header>
      <main className="sw-viewer-main">
        {room ? (
          <Suspense fallback={<Spinner size="lg" fullPage />}>
          <PanoramaViewer
            rooms={v.rooms}
            roomId={room.id}
            onRoomChange={(id) => {
              // The tour reports the first room too: the point of interest of the address stays open.
              if (id !== room.id) setOpenPoi(null);
              setRoomId(id);
            }}
            markers={markers}
            onMarkerSelect={(id) => snags.selectMarker(id) || setOpenPoi(pois.find((p) => `poi-${p.id}` === id) ?? null)}
            onPick={snags.pick}
            onViewChange={onView}
            initialView={initialView}
            label={t('360° view of {name}. Use the arrow keys to look around.', { name: room.name })}
            linkLabel={(name) => t('Go to {name}', { name })}
            keyboardAlways
            adoptBooted
            handleRef={pano}
          />
          </Suspense>
        ) : (
          <div className="sw-fullpage-center text-white-50" data-testid="viewer-empty">
            <p>{t('This visit has no rooms to show yet.')}</p>
          </div>
        )}
        {room && pois.length > 0 && (
          <nav className="sw-viewer-pois" aria-label={t('Points of interest')}>
            {pois.map((p) => (
              <button
                key={p.id}
                type="button"
                className="btn btn-sm btn-light"
                onClick={() => {
                  setOpenPoi(p);
                  // Turn towards it, keeping the zoom.
                  pano.current?.setView({ yaw: p.yaw, pitch: p.pitch, zoom: pano.current.view()?.zoom ?? 0 });
                }}
                data-testid="viewer-poi-button"
              >
                <i className="bi bi-info-circle me-1" aria-hidden="true" />
                {p.title}
              </button>
            ))}
          </nav>
        )}
        {sheet && sheetOpen && room && (
          <div className="sw-viewer-sheet shadow" data-testid="viewer-sheet">
            <Suspense fallback={<Spinner />}>
              <SheetRoomsMap
                sheet={{ ...sheet, min_zoom: 0 }}
                rooms={sheetRooms}
                currentRoomId={room.id}
                yaw={yaw}
                onSelect={(id) => setRoomId(id)}
                snagPins={snags.pinsOn(sheet.id)}
                onSnagSelect={snags.open}
                onSheetClick={snags.pickOnSheet && ((x, y) => snags.pickOnSheet!(sheet.id, x, y))}
                label={t('Floor sheet {name} with the rooms of the visit', { name: sheet.name })}
                className="h-100"
                zoomControl={false}
              />
            </Suspense>
          </div>
        )}
        <PoiPanel poi={openPoi && openPoi.id_room === roomId ? openPoi : null} onClose={() => setOpenPoi(null)} />
        {snags.overlay}
      </main>
    </div>
  );
}
