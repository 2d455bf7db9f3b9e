import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Hotspot, Poi, Room } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { viewerPath } from '../../lib/share-links';
import { Spinner } from '../../components/spinner';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import PanoramaViewer, { type PanoramaHandle, type TourMarker, type TourRoom } from '../../components/panorama/panorama-viewer';
import { visitLoadScreen } from '../../components/visit-load-guard';
import { useSetVisit, useVisitQuery, visitLoadOf } from '../../components/use-visit-query';
import { useRoomPoisQuery } from './use-room-pois-query';
import { PoiForm } from './poi-form';
import '../projects/projects.css';
import '../visits/visits.css';

type Mode = 'look' | 'hotspot' | 'poi';

const positiveInt = (s: string | undefined) => (s && /^[1-9]\d{0,9}$/.test(s) ? Number(s) : null);

const tourRoom = (r: Room): TourRoom | null => (r.status === 'ready' && r.panorama ? { id: r.id, name: r.name, panorama: r.panorama, hotspots: r.hotspots, thumbnail_url: r.thumbnail_url } : null);

/**
 * /visittour/{id}/{room?}: the hotspot and point-of-interest editor of a
 * visit. Click in the 360 view to place a link to another room, or a point
 * of interest, then fill in what it says.
 */
export default function VisitTourPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id, room: roomParam } = useParams();
  const visitId = positiveInt(id);
  const visitQuery = useVisitQuery(visitId);
  const visit = visitQuery.data ?? null;
  const setVisit = useSetVisit(visitId);
  const [roomId, setRoomId] = useState<number | null>(positiveInt(roomParam));
  const [mode, setMode] = useState<Mode>('look');
  const [pick, setPick] = useState<{ yaw: number; pitch: number } | null>(null);
  const [target, setTarget] = useState('');
  const [editing, setEditing] = useState<Poi | null>(null);
  const [removing, setRemoving] = useState<{ kind: 'hotspot'; h: Hotspot } | { kind: 'poi'; p: Poi } | null>(null);
  const [busy, setBusy] = useState(false);
  const pano = useRef<PanoramaHandle>(null);

  const rooms = useMemo(() => (visit?.rooms ?? []).map(tourRoom).filter((r): r is TourRoom => r !== null), [visit]);
  const current = rooms.find((r) => r.id === roomId) ?? rooms[0] ?? null;
  const currentRoom = visit?.rooms.find((r) => r.id === current?.id) ?? null;

  useEffect(() => {
    if (!visit || !current) return;
    const path = `/visittour/${visit.id}/${current.id}`;
    if (path !== window.location.pathname) navigate(path, { replace: true });
  }, [visit, current, navigate]);

  const poisQuery = useRoomPoisQuery(current?.id ?? null);
  const pois = useMemo(() => poisQuery.data ?? [], [poisQuery.data]);
  const setPois = poisQuery.setPois;

  const changeRoom = (next: number) => {
    setRoomId(next);
    setPick(null);
    setEditing(null);
  };

  // The screen stays mounted while the address's room changes (route-table sameScreenParams):
  // a room named by the address from outside (a link, the browser's history) is followed here.
  useEffect(() => {
    const asked = positiveInt(roomParam);
    if (asked !== null && asked !== roomId) changeRoom(asked);
  }, [roomParam]); // eslint-disable-line react-hooks/exhaustive-deps

  const markers = useMemo<TourMarker[]>(() => {
    const list: TourMarker[] = pois.map((p) => ({ id: `poi-${p.id}`, yaw: p.yaw, pitch: p.pitch, title: p.title, kind: 'poi' }));
    if (pick && mode !== 'look') list.push({ id: 'draft', yaw: pick.yaw, pitch: pick.pitch, title: t('New place'), kind: 'draft' });
    return list;
  }, [pois, pick, mode, t]);

  const replaceRoomHotspots = (roomIdToChange: number, change: (hs: Hotspot[]) => Hotspot[]) =>
    setVisit((v) => ({ ...v, rooms: v.rooms.map((r) => (r.id === roomIdToChange ? { ...r, hotspots: change(r.hotspots) } : r)) }));

  const bind = async () => {
    if (!visit || !current || !pick || !target) return;
    setBusy(true);
    try {
      const h = await api.post<Hotspot>(
        `/visits/${visit.id}/bind-hotspot`,
        { id_room: current.id, id_room_target: Number(target), yaw: pick.yaw, pitch: pick.pitch },
        tk('Failed to save the hotspot.'),
      );
      replaceRoomHotspots(current.id, (hs) => [...hs.filter((x) => x.id_room_target !== h.id_room_target), h]);
      setPick(null);
      setTarget('');
      setMode('look');
      showToast('success', t('Hotspot saved.'));
    } catch (err) {
      showToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
    }
  };

  const confirmRemove = async () => {
    if (!visit || !removing) return;
    setBusy(true);
    try {
      if (removing.kind === 'hotspot') {
        await api.post(`/visits/${visit.id}/unbind-hotspot`, { id_room: removing.h.id_room, id_room_target: removing.h.id_room_target }, tk('Failed to remove the hotspot.'));
        replaceRoomHotspots(removing.h.id_room, (hs) => hs.filter((x) => x.id_room_target !== removing.h.id_room_target));
        showToast('success', t('Hotspot removed.'));
      } else {
        await api.delete(`/pois/${removing.p.id}`, tk('Failed to delete the point of interest.'));
        setPois((l) => l.filter((x) => x.id !== removing.p.id));
        if (editing?.id === removing.p.id) setEditing(null);
        showToast('success', t('Point of interest deleted.'));
      }
      setRemoving(null);
    } catch (err) {
      showToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
    }
  };

  const waiting = visitLoadScreen(visitId, visitLoadOf([visitQuery]), () => void visitQuery.refetch());
  if (waiting || !visit) return waiting ?? <Spinner size="lg" />;

  const others = rooms.filter((r) => r.id !== current?.id);
  const hint =
    mode === 'hotspot'
      ? pick
        ? t('Choose the room this hotspot leads to.')
        : t('Click in the 360° view where the way to another room is.')
      : mode === 'poi'
        ? pick
          ? t('Describe the point of interest.')
          : t('Click in the 360° view on what you want to point out.')
        : t('Look around; hotspots take you to the linked room.');

  return (
    <div className="d-flex flex-column gap-3" data-testid="visit-tour-page">
      <div className="d-flex flex-wrap align-items-center gap-2">
        <h2 className="h5 mb-0 me-auto text-break">{visit.name}</h2>
        <a href={viewerPath(visit.code, current?.id)} target="_blank" rel="noopener" className="btn btn-outline-secondary btn-sm">
          <i className="bi bi-play-circle me-1" aria-hidden="true" />
          {t('Open in the viewer')}
        </a>
        <Link to={`/editvisit/${visit.id}`} className="btn btn-outline-secondary btn-sm">
          <i className="bi bi-pencil me-1" aria-hidden="true" />
          {t('Edit visit')}
        </Link>
      </div>
      {!current ? (
        <div className="card border-0 shadow-sm sw-empty-state" data-testid="tour-empty">
          <i className="bi bi-images d-block mb-2" aria-hidden="true" />
          <p className="mb-3">{t('No room of this visit is ready yet.')}</p>
          <div>
            <Link to={`/editvisit/${visit.id}`} className="btn btn-primary">
              {t('Upload 360° photos')}
            </Link>
          </div>
        </div>
      ) : (
        <div className="row g-3">
          <div className="col-lg-8">
            <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
              <select className="form-select form-select-sm w-auto" aria-label={t('Room')} value={current.id} onChange={(e) => changeRoom(Number(e.target.value))} data-testid="tour-room-select">
                {rooms.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
              </select>
              <div className="btn-group btn-group-sm" role="group" aria-label={t('What a click in the view does')}>
                {(
                  [
                    ['look', 'bi-eye', tk('Look around')],
                    ['hotspot', 'bi-signpost-split', tk('Add a hotspot')],
                    ['poi', 'bi-info-circle', tk('Add a point of interest')],
                  ] as const
                ).map(([m, icon, label]) => (
                  <button
                    key={m}
                    type="button"
                    className={`btn ${mode === m ? 'btn-primary' : 'btn-outline-primary'}`}
                    aria-pressed={mode === m}
                    onClick={() => {
                      setMode(m);
                      setPick(null);
                      setEditing(null);
                    }}
                    disabled={m === 'hotspot' && others.length === 0}
                    aria-label={t(label)}
                    title={t(label)}
                  >
                    <i className={`bi ${icon}`} aria-hidden="true" />
                    <span className="d-none d-sm-inline ms-1">{t(label)}</span>
                  </button>
                ))}
              </div>
            </div>
            <p className="small text-body-secondary mb-2" aria-live="polite" data-testid="tour-hint">
              {hint}
            </p>
            <div className="sw-pano-frame">
              <PanoramaViewer
                rooms={rooms}
                roomId={current.id}
                onRoomChange={changeRoom}
                markers={markers}
                onMarkerSelect={(markerId) => {
                  const p = pois.find((x) => `poi-${x.id}` === markerId);
                  if (p) {
                    setMode('poi');
                    setPick(null);
                    setEditing(p);
                  }
                }}
                onPick={(pos) => mode !== 'look' && setPick(pos)}
                label={t('360° view of {name}. Use the arrow keys to look around.', { name: current.name })}
                linkLabel={(name) => t('Go to {name}', { name })}
                handleRef={pano}
              />
            </div>
            {mode !== 'look' && (
              <button
                type="button"
                className="btn btn-link btn-sm px-0"
                onClick={() => {
                  const v = pano.current?.view();
                  if (v) setPick({ yaw: v.yaw, pitch: v.pitch });
                }}
              >
                {t('Use the centre of the view')}
              </button>
            )}
          </div>
          <div className="col-lg-4 d-flex flex-column gap-3">
            {mode === 'hotspot' && pick && (
              <form
                className="card border-primary"
                onSubmit={(e) => {
                  e.preventDefault();
                  void bind();
                }}
                data-testid="hotspot-form"
              >
                <div className="card-body">
                  <label htmlFor="hotspot-target" className="form-label">
                    {t('Leads to')}
                  </label>
                  <select id="hotspot-target" className="form-select mb-2" value={target} onChange={(e) => setTarget(e.target.value)} required>
                    <option value="">{t('Choose a room')}</option>
                    {others.map((r) => (
                      <option key={r.id} value={r.id}>
                        {r.name}
                      </option>
                    ))}
                  </select>
                  <div className="d-flex gap-2">
                    <button type="submit" className="btn btn-primary btn-sm" disabled={busy || !target}>
                      {t('Save hotspot')}
                    </button>
                    <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => setPick(null)}>
                      {t('Cancel')}
                    </button>
                  </div>
                </div>
              </form>
            )}
            {((mode === 'poi' && pick) || editing) && current && (
              <PoiForm
                key={editing?.id ?? 'new'}
                roomId={current.id}
                poi={editing}
                position={pick}
                onSaved={(p) => {
                  setPois((l) => (l.some((x) => x.id === p.id) ? l.map((x) => (x.id === p.id ? p : x)) : [...l, p]));
                  setPick(null);
                  setEditing(null);
                  setMode('look');
                }}
                onCancel={() => {
                  setPick(null);
                  setEditing(null);
                }}
              />
            )}
            <section className="card border-0 shadow-sm" aria-labelledby="hotspots-heading">
              <div className="card-header bg-transparent">
                <h3 id="hotspots-heading" className="h6 mb-0">
                  {t('Hotspots of {name}', { name: current.name })}
                </h3>
              </div>
              <ul className="list-group list-group-flush" data-testid="hotspot-list">
                {(currentRoom?.hotspots ?? []).length === 0 && <li className="list-group-item small text-body-secondary">{t('No hotspot yet.')}</li>}
                {(currentRoom?.hotspots ?? []).map((h) => (
                  <li key={h.id} className="list-group-item d-flex align-items-center gap-2" data-testid="hotspot-item">
                    <span className="me-auto text-break">→ {h.target_name}</span>
                    <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => changeRoom(h.id_room_target)} aria-label={t('Go to {name}', { name: h.target_name })}>
                      <i className="bi bi-box-arrow-in-right" aria-hidden="true" />
                    </button>
                    <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setRemoving({ kind: 'hotspot', h })} aria-label={t('Remove the hotspot to {name}', { name: h.target_name })}>
                      <i className="bi bi-trash" aria-hidden="true" />
                    </button>
                  </li>
                ))}
              </ul>
            </section>
            <section className="card border-0 shadow-sm" aria-labelledby="pois-heading">
              <div className="card-header bg-transparent">
                <h3 id="pois-heading" className="h6 mb-0">
                  {t('Points of interest')}
                </h3>
              </div>
              <ul className="list-group list-group-flush" data-testid="poi-list">
                {pois.length === 0 && <li className="list-group-item small text-body-secondary">{t('No point of interest yet.')}</li>}
                {pois.map((p) => (
                  <li key={p.id} className="list-group-item d-flex align-items-center gap-2" data-testid="poi-item">
                    <span className="me-auto text-break">{p.title}</span>
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-secondary"
                      onClick={() => {
                        setMode('poi');
                        setPick(null);
                        setEditing(p);
                        const v = pano.current?.view();
                        pano.current?.setView({ yaw: p.yaw, pitch: p.pitch, zoom: v?.zoom ?? 0 });
                      }}
                      aria-label={t('Edit {name}', { name: p.title })}
                    >
                      <i className="bi bi-pencil" aria-hidden="true" />
                    </button>
                    <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setRemoving({ kind: 'poi', p })} aria-label={t('Delete {name}', { name: p.title })}>
                      <i className="bi bi-trash" aria-hidden="true" />
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          </div>
        </div>
      )}
      <ConfirmDialog
        show={removing !== null}
        title={removing?.kind === 'poi' ? t('Delete point of interest') : t('Remove hotspot')}
        body={
          removing?.kind === 'poi'
            ? t('Delete "{name}"? This cannot be undone.', { name: removing.p.title })
            : t('Remove the hotspot to "{name}"?', { name: removing?.kind === 'hotspot' ? removing.h.target_name : '' })
        }
        confirmLabel={removing?.kind === 'poi' ? t('Delete') : t('Remove')}
        busy={busy}
        onCancel={() => setRemoving(null)}
        onConfirm={() => void confirmRemove()}
      />
    </div>
  );
}
