import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Room, SheetRoom } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { formatNumber } from '../../lib/format';
import { Spinner } from '../../components/spinner';
import { visitLoadScreen } from '../../components/visit-load-guard';
import { useSetVisit, useVisitWithSheets } from '../../components/use-visit-query';
import { useShownSheet } from '../../components/use-shown-sheet';
import { LabelledSelect } from '../../components/labelled-select';
import type { SheetRoomsHandle } from '../sheet/sheet-rooms-map';
import '../projects/projects.css';
import '../visits/visits.css';

const SheetRoomsMap = lazy(() => import('../sheet/sheet-rooms-map'));

const SAVE_FAILED = tk('Failed to save the place of the room.');

const positiveInt = (s: string | null | undefined) => (s && /^[1-9]\d{0,9}$/.test(s) ? Number(s) : null);
const toDegrees = (rad: number | null) => (rad === null ? 0 : Math.round((((rad * 180) / Math.PI) % 360 + 360) % 360));

/**
 * /visitsheet/{id}: the sheet placement editor of a visit. Rooms are dragged
 * to their place on a floor sheet (or picked, then dropped where the sheet is
 * clicked, or at the centre of the view with the keyboard); every move is
 * saved at once through PUT /maps/{id}/room-positions.
 */
export default function VisitSheetPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  const visitId = positiveInt(id);
  const { visit, sheets, load, retry } = useVisitWithSheets(visitId);
  const setVisit = useSetVisit(visitId);
  const rooms = useMemo(() => visit?.rooms ?? [], [visit]);
  const setRooms = (change: (list: Room[]) => Room[]) => setVisit((v) => ({ ...v, rooms: change(v.rooms) }));
  const [placing, setPlacing] = useState<number | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [heading, setHeading] = useState('0');
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState('');
  const mapHandle = useRef<SheetRoomsHandle>(null);
  const n = (v: number) => formatNumber(v, i18n.language);

  // Without a sheet in the address, the screen stays on the sheet it opened on (taking its last room off does not switch).
  const opened = useRef<number | null>(null);
  if (opened.current === null && visit && load.status === 'ready') opened.current = visit.id_map ?? visit.rooms.find((r) => r.id_map)?.id_map ?? sheets[0]?.id ?? null;
  const sheetId = positiveInt(params.get('map')) ?? opened.current;
  const sheet = useShownSheet(visit ? sheetId : null, visit?.maps ?? []);

  const onSheet = useMemo(() => rooms.filter((r) => sheet && r.id_map === sheet.id && r.x !== null && r.y !== null), [rooms, sheet]);
  const marks = useMemo(() => new Map(rooms.map((r, i) => [r.id, String(i + 1)])), [rooms]);
  const dots = useMemo(() => onSheet.map((r) => ({ id: r.id, name: r.name, x: r.x, y: r.y, heading: r.heading, mark: marks.get(r.id) })), [onSheet, marks]);

  const savePlace = async (roomId: number, x: number, y: number, headingRad?: number | null) => {
    if (!sheet) return;
    setSaving(true);
    setStatus(t('Saving…'));
    const body = { rooms: [{ id: roomId, x, y, ...(headingRad !== undefined ? { heading: headingRad } : {}) }] };
    try {
      const saved = await api.put<SheetRoom[]>(`/maps/${sheet.id}/room-positions`, body, SAVE_FAILED);
      const byId = new Map(saved.map((r) => [r.id, r]));
      setRooms((list) => list.map((r) => (byId.has(r.id) ? { ...r, id_map: byId.get(r.id)!.id_map, x: byId.get(r.id)!.x, y: byId.get(r.id)!.y, heading: byId.get(r.id)!.heading } : r)));
      const name = rooms.find((r) => r.id === roomId)?.name ?? '';
      setStatus(t('{name} saved on the sheet.', { name }));
    } catch (err) {
      setStatus('');
      showToast('error', t((err as Error).message));
    } finally {
      setSaving(false);
    }
  };

  const takeOff = async (room: Room) => {
    setSaving(true);
    try {
      const saved = await api.put<Room>(`/rooms/${room.id}`, { id_map: null }, SAVE_FAILED);
      setRooms((list) => list.map((r) => (r.id === saved.id ? saved : r)));
      setStatus(t('{name} taken off the sheet.', { name: room.name }));
      if (selected === room.id) setSelected(null);
    } catch (err) {
      showToast('error', t((err as Error).message));
    } finally {
      setSaving(false);
    }
  };

  const waiting = visitLoadScreen(visitId, load, retry);
  if (waiting || !visit) return waiting ?? <Spinner size="lg" />;

  const placingRoom = rooms.find((r) => r.id === placing) ?? null;
  const selectedRoom = onSheet.find((r) => r.id === selected) ?? null;

  return (
    <div className="d-flex flex-column gap-3" data-testid="visit-sheet-page">
      <div className="d-flex flex-wrap align-items-end gap-2">
        <h2 className="h5 mb-0 me-auto text-break">{visit.name}</h2>
        {sheets.length > 0 && (
          <LabelledSelect
            id="placement-sheet"
            small
            label={t('Sheet')}
            value={sheetId ?? ''}
            options={sheets.map((s) => ({ value: s.id, label: s.name }))}
            onChange={(v) => setParams({ map: v }, { replace: true })}
          />
        )}
        <Link to={`/editvisit/${visit.id}`} className="btn btn-outline-secondary btn-sm">
          <i className="bi bi-pencil me-1" aria-hidden="true" />
          {t('Edit visit')}
        </Link>
      </div>
      {sheets.length === 0 ? (
        <div className="card border-0 shadow-sm sw-empty-state" data-testid="placement-no-sheet">
          <i className="bi bi-map d-block mb-2" aria-hidden="true" />
          <p className="mb-3">{t('This project has no sheet yet. Upload its PDF plans first.')}</p>
          <div>
            <Link to={`/project/${visit.id_project}`} className="btn btn-primary">
              {t('Open project')}
            </Link>
          </div>
        </div>
      ) : (
        <div className="row g-3">
          <div className="col-lg-8">
            <p className="small text-body-secondary mb-2" aria-live="polite" data-testid="placement-hint">
              {placingRoom ? t('Click the sheet where {name} was taken.', { name: placingRoom.name }) : t('Drag a room to move it, or pick one in the list to place it.')}
            </p>
            {sheet ? (
              <Suspense fallback={<Spinner />}>
                <SheetRoomsMap
                  sheet={sheet}
                  rooms={dots}
                  currentRoomId={selected ?? placing}
                  onSelect={(rid) => {
                    setSelected(rid);
                    setHeading(String(toDegrees(rooms.find((r) => r.id === rid)?.heading ?? null)));
                  }}
                  onMove={(rid, x, y) => void savePlace(rid, x, y)}
                  onSheetClick={(x, y) => {
                    if (placing === null) return;
                    const rid = placing;
                    setPlacing(null);
                    setSelected(rid);
                    void savePlace(rid, x, y);
                  }}
                  label={t('Sheet {name}: drag the rooms to their place', { name: sheet.name })}
                  handleRef={mapHandle}
                  className="sw-placement-map"
                />
              </Suspense>
            ) : (
              <Spinner />
            )}
            <p className="small mt-2 mb-0" role="status" data-testid="placement-status">
              {saving && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
              {status}
            </p>
          </div>
          <div className="col-lg-4 d-flex flex-column gap-3">
            {selectedRoom && (
              <form
                className="card border-primary"
                onSubmit={(e) => {
                  e.preventDefault();
                  const deg = Number(heading);
                  if (!Number.isFinite(deg)) return;
                  void savePlace(selectedRoom.id, selectedRoom.x!, selectedRoom.y!, (((deg % 360) + 360) % 360) * (Math.PI / 180));
                }}
              >
                <div className="card-body">
                  <h3 className="h6">{selectedRoom.name}</h3>
                  <label htmlFor="room-heading" className="form-label small">
                    {t('Direction of the photo’s centre on the sheet (degrees clockwise from up)')}
                  </label>
                  <div className="d-flex gap-2">
                    <input id="room-heading" type="number" min={0} max={359} step={5} className="form-control form-control-sm" value={heading} onChange={(e) => setHeading(e.target.value)} />
                    <button type="submit" className="btn btn-sm btn-primary" disabled={saving}>
                      {t('Save')}
                    </button>
                  </div>
                </div>
              </form>
            )}
            <section className="card border-0 shadow-sm" aria-labelledby="placement-rooms">
              <div className="card-header bg-transparent">
                <h3 id="placement-rooms" className="h6 mb-0">
                  {t('Rooms')} <span className="badge text-bg-secondary">{t('{placed} of {n} on this sheet', { placed: n(onSheet.length), n: n(rooms.length) })}</span>
                </h3>
              </div>
              {rooms.length === 0 && <p className="card-body small text-body-secondary mb-0">{t('No rooms yet. Upload the 360° photos of this visit.')}</p>}
              <ul className="list-group list-group-flush">
                {rooms.map((r) => {
                  const here = onSheet.some((x) => x.id === r.id);
                  return (
                    <li key={r.id} className={`list-group-item d-flex flex-wrap align-items-center gap-2${placing === r.id ? ' active' : ''}`} data-testid="placement-room" data-placed={here}>
                      <span className="badge text-bg-light border">{marks.get(r.id)}</span>
                      <span className="me-auto text-break">{r.name}</span>
                      {!here && r.id_map && <span className="small text-body-secondary">{t('On another sheet')}</span>}
                      <button
                        type="button"
                        className={`btn btn-sm ${placing === r.id ? 'btn-light' : 'btn-outline-primary'}`}
                        aria-pressed={placing === r.id}
                        onClick={() => setPlacing((p) => (p === r.id ? null : r.id))}
                        disabled={!sheet}
                      >
                        {here ? t('Move') : t('Place')}
                      </button>
                      {placing === r.id && (
                        <button
                          type="button"
                          className="btn btn-sm btn-light"
                          onClick={() => {
                            const c = mapHandle.current?.centre();
                            if (!c) return;
                            setPlacing(null);
                            setSelected(r.id);
                            void savePlace(r.id, Math.round(c.x), Math.round(c.y));
                          }}
                        >
                          {t('At the centre of the view')}
                        </button>
                      )}
                      {here && (
                        <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void takeOff(r)} aria-label={t('Take {name} off the sheet', { name: r.name })} disabled={saving}>
                          <i className="bi bi-x-lg" aria-hidden="true" />
                        </button>
                      )}
                    </li>
                  );
                })}
              </ul>
            </section>
          </div>
        </div>
      )}
    </div>
  );
}
