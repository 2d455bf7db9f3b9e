import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { ProgressBar } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, ROOM_IMAGE, type Room, type VisitDetail } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formatNumber } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { applyRoomEvent, isRoomEventFor, move, tilingFrom, type TilingById } from '../../lib/room-progress';
import { useProjectJobs } from '../../realtime/use-project-jobs';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { Spinner } from '../../components/spinner';
import { FileButton } from '../../components/file-button';

const ROOM_MAX_MB = Math.round(ROOM_IMAGE.maxBytes / (1024 * 1024));
const ROOMS_FAILED = tk('Failed to load the rooms.');

/** The rooms of a visit as this list shows them (read with the visit, GET /visits/{id}). */
const roomsKey = (visitId: number) => ['visits', visitId, 'rooms'] as const;

interface Sending {
  key: number;
  name: string;
  percent: number;
  state: 'waiting' | 'sending' | 'failed';
  error?: string;
}

/**
 * The rooms of a visit: upload many 360 photos at once (a progress bar per
 * file for the bytes, then per room for the tiling, live over the socket),
 * reorder, rename, and delete after a confirmation.
 */
export function RoomManager({ visit }: { visit: VisitDetail }) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatNumber(v, i18n.language);
  const queryClient = useQueryClient();
  const roomsQuery = useQuery({
    queryKey: roomsKey(visit.id),
    queryFn: ({ signal }) => api.get<VisitDetail>(`/visits/${visit.id}`, ROOMS_FAILED, { signal }).then((v) => v.rooms),
  });
  const rooms = roomsQuery.data ?? null;
  const loadError = roomsQuery.error ? roomsQuery.error.message || ROOMS_FAILED : null;
  const setRooms = useCallback(
    (change: (list: Room[]) => Room[]) => queryClient.setQueryData<Room[]>(roomsKey(visit.id), (list) => list && change(list)),
    [queryClient, visit.id],
  );
  const [tiling, setTiling] = useState<TilingById>({});
  const [sending, setSending] = useState<Sending[]>([]);
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const [deleting, setDeleting] = useState<Room | null>(null);
  const [busy, setBusy] = useState(false);
  const queue = useRef<{ key: number; file: File }[]>([]);
  const running = useRef(false);
  const nextKey = useRef(1);

  const reload = useCallback(() => void queryClient.invalidateQueries({ queryKey: roomsKey(visit.id) }), [queryClient, visit.id]);
  // The rooms as listed: the finished ones as the server has them (a failed one with its reason), the others as far as their live progress got.
  useEffect(() => {
    if (rooms) setTiling((s) => ({ ...tilingFrom(rooms), ...Object.fromEntries(Object.entries(s).filter(([id]) => rooms.some((r) => r.id === Number(id) && r.status !== 'ready' && r.status !== 'failed'))) }));
  }, [rooms]);

  // A room whose tiling ended, as the server has it now.
  const refreshRoom = useCallback(
    async (id: number) => {
      try {
        const room = await queryClient.fetchQuery({ queryKey: ['rooms', id], queryFn: ({ signal }) => api.get<Room>(`/rooms/${id}`, ROOMS_FAILED, { signal }) });
        setRooms((list) => list.map((r) => (r.id === id ? room : r)));
      } catch (err) {
        console.warn(err);
      }
    },
    [queryClient, visit.id, setRooms],
  );

  const live = useProjectJobs(
    visit.id_project,
    (e) => isRoomEventFor(e, visit.id),
    (e) => {
      setTiling((s) => applyRoomEvent(s, e));
      if (e.state === 'completed' || e.state === 'failed') void refreshRoom(e.subject.id);
    },
    reload,
  );

  // One photo at a time: each gets the whole upload bandwidth and its own bar.
  const pump = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    try {
      for (let next = queue.current.shift(); next; next = queue.current.shift()) {
        const { key, file } = next;
        const form = new FormData();
        form.append('id_visit', String(visit.id));
        form.append('file', file);
        setSending((l) => l.map((s) => (s.key === key ? { ...s, state: 'sending' } : s)));
        try {
          const room = await api.upload<Room>('/rooms', form, MESSAGES.uploadFileFailed, {
            onProgress: (percent) => setSending((l) => l.map((s) => (s.key === key ? { ...s, percent } : s))),
            // A 150 MB panorama over a slow line takes longer than the 30 s of other calls.
            timeout: 0,
          });
          setSending((l) => l.filter((s) => s.key !== key));
          setRooms((list) => (list.some((r) => r.id === room.id) ? list : [...list, room]));
          setTiling((s) => (s[room.id] ? s : { ...s, [room.id]: { status: room.status, percent: 0, message: '' } }));
        } catch (err) {
          setSending((l) => l.map((s) => (s.key === key ? { ...s, state: 'failed', error: (err as Error).message || MESSAGES.uploadFileFailed } : s)));
        }
      }
    } finally {
      running.current = false;
    }
  }, [visit.id]);

  const addFiles = (files: File[]) => {
    const accepted: Sending[] = [];
    for (const file of files) {
      const key = nextKey.current++;
      if (!/^image\/(jpeg|png|webp)$/.test(file.type) && !/\.(jpe?g|png|webp)$/i.test(file.name)) {
        accepted.push({ key, name: file.name, percent: 0, state: 'failed', error: tk('Choose JPEG, PNG or WebP 360° photos.') });
        continue;
      }
      if (file.size > ROOM_IMAGE.maxBytes) {
        accepted.push({ key, name: file.name, percent: 0, state: 'failed', error: t('The photo is larger than {mb} MB.', { mb: ROOM_MAX_MB }) });
        continue;
      }
      accepted.push({ key, name: file.name, percent: 0, state: 'waiting' });
      queue.current.push({ key, file });
    }
    setSending((l) => [...l, ...accepted]);
    void pump();
  };

  const saveOrder = async (next: Room[]) => {
    const before = rooms;
    setRooms(() => next);
    setBusy(true);
    try {
      const saved = await api.put<Room[]>(`/visits/${visit.id}/room-order`, { ids: next.map((r) => r.id) }, tk('Failed to save the order of the rooms.'));
      setRooms(() => saved);
    } catch (err) {
      if (before) setRooms(() => before);
      showToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
    }
  };

  const rename = async () => {
    if (!renaming) return;
    const name = renaming.name.trim();
    if (!name) {
      showToast('error', t('Room name is required'));
      return;
    }
    setBusy(true);
    try {
      const room = await api.put<Room>(`/rooms/${renaming.id}`, { name }, tk('Failed to rename the room.'));
      setRooms((list) => list.map((r) => (r.id === room.id ? room : r)));
      setRenaming(null);
      showToast('success', t('Room renamed.'));
    } catch (err) {
      showToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await api.delete(`/rooms/${deleting.id}`, tk('Failed to delete the room.'));
      setRooms((list) => list.filter((r) => r.id !== deleting.id));
      showToast('success', t('Room deleted.'));
      setDeleting(null);
    } catch (err) {
      showToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
    }
  };

  const readyCount = rooms?.filter((r) => r.status === 'ready').length ?? 0;

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="rooms-heading" data-testid="room-manager">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h2 id="rooms-heading" className="h6 mb-0 me-auto">
          {t('Rooms')} {rooms && <span className="badge text-bg-secondary" data-testid="rooms-count">{n(rooms.length)}</span>}
        </h2>
        {live && (
          <span className="badge rounded-pill bg-body-secondary text-body border sw-live" title={t('Changes to this project appear here as they happen.')}>
            <span className="sw-live-dot" aria-hidden="true" /> {t('Live updates')}
          </span>
        )}
        {visit.can_edit && (
          <FileButton className="btn btn-primary btn-sm" accept="image/jpeg,image/png,image/webp" inputLabel={t('360° photos')} multiple onFiles={addFiles}>
            <i className="bi bi-cloud-arrow-up me-1" aria-hidden="true" />
            {t('Upload 360° photos')}
          </FileButton>
        )}
      </div>
      <div className="card-body">
        <p className="form-text mt-0">{t('Equirectangular panoramas (twice as wide as high), JPEG, PNG or WebP, up to {mb} MB each. Choose several at once.', { mb: ROOM_MAX_MB })}</p>
        {readyCount > 0 && (
          <div className="d-flex flex-wrap gap-2 mb-3">
            <Link to={`/visittour/${visit.id}`} className="btn btn-outline-primary btn-sm">
              <i className="bi bi-signpost-split me-1" aria-hidden="true" />
              {t('Hotspots and points of interest')}
            </Link>
            <Link to={`/visitsheet/${visit.id}`} className="btn btn-outline-primary btn-sm">
              <i className="bi bi-pin-map me-1" aria-hidden="true" />
              {t('Place rooms on the sheet')}
            </Link>
          </div>
        )}
        {sending.length > 0 && (
          <ul className="list-unstyled d-flex flex-column gap-2 mb-3" aria-live="polite" aria-label={t('Uploads')} data-testid="room-uploads">
            {sending.map((s) => (
              <li key={s.key} className={`border rounded p-2${s.state === 'failed' ? ' border-danger' : ''}`} data-testid="room-upload">
                <div className="d-flex align-items-center gap-2 small mb-1">
                  <span className="text-truncate me-auto">{s.name}</span>
                  {s.state === 'waiting' && <span className="text-body-secondary">{t('Waiting for its turn…')}</span>}
                  {s.state === 'failed' && (
                    <button type="button" className="btn-close" aria-label={t('Close')} onClick={() => setSending((l) => l.filter((x) => x.key !== s.key))} />
                  )}
                </div>
                {s.state === 'failed' ? (
                  <div className="text-danger small" role="alert">
                    {t(s.error ?? MESSAGES.uploadFileFailed)}
                  </div>
                ) : (
                  <ProgressBar now={s.percent} label={`${n(s.percent)}%`} aria-label={t('Uploading {name}', { name: s.name })} animated={s.state === 'sending'} />
                )}
              </li>
            ))}
          </ul>
        )}
        {loadError && (
          <div className="alert alert-danger d-flex align-items-center gap-2" role="alert">
            <span className="me-auto">{t(loadError)}</span>
            <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void reload()}>
              {t('Try again')}
            </button>
          </div>
        )}
        {rooms === null && !loadError && <Spinner />}
        {rooms?.length === 0 && sending.length === 0 && (
          <div className="sw-empty-state py-4" data-testid="rooms-empty">
            <i className="bi bi-images d-block mb-2" aria-hidden="true" />
            <p className="mb-0">{t('No rooms yet. Upload the 360° photos of this visit.')}</p>
          </div>
        )}
        {rooms && rooms.length > 0 && (
          <ol className="list-unstyled d-flex flex-column gap-2 mb-0 sw-room-list" aria-label={t('Rooms')}>
            {rooms.map((r, i) => {
              const state = tiling[r.id] ?? { status: r.status, percent: r.status === 'ready' ? 100 : 0, message: r.error ?? '' };
              const status = r.status === 'ready' || r.status === 'failed' ? r.status : state.status;
              return (
                <li key={r.id} className="border rounded p-2 d-flex flex-wrap align-items-center gap-2" data-testid="room-row" data-status={status}>
                  <span className="badge text-bg-light border">{n(i + 1)}</span>
                  {r.thumbnail_url ? (
                    <img src={r.thumbnail_url} alt="" className="sw-visit-thumb rounded" loading="lazy" />
                  ) : (
                    <span className="sw-visit-thumb sw-thumb-empty rounded" aria-hidden="true">
                      <i className="bi bi-image" />
                    </span>
                  )}
                  <div className="min-w-0 flex-grow-1">
                    {renaming?.id === r.id ? (
                      <form
                        className="d-flex gap-1"
                        onSubmit={(e) => {
                          e.preventDefault();
                          void rename();
                        }}
                      >
                        <input
                          className="form-control form-control-sm"
                          aria-label={t('Room name')}
                          value={renaming.name}
                          maxLength={200}
                          autoFocus
                          onChange={(e) => setRenaming({ id: r.id, name: e.target.value })}
                          onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)}
                        />
                        <button type="submit" className="btn btn-sm btn-primary" disabled={busy}>
                          {t('Save')}
                        </button>
                        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setRenaming(null)}>
                          {t('Cancel')}
                        </button>
                      </form>
                    ) : (
                      <div className="fw-semibold text-break" data-testid="room-name">
                        {r.name}
                      </div>
                    )}
                    {status === 'ready' && (
                      <div className="small text-body-secondary">
                        {t('{width} × {height} pixels', { width: n(r.width), height: n(r.height) })}
                        {r.hotspots.length > 0 && ` · ${t('{n} hotspots', { count: r.hotspots.length, n: n(r.hotspots.length) })}`}
                        {r.pois_count > 0 && ` · ${t('{n} points of interest', { count: r.pois_count, n: n(r.pois_count) })}`}
                      </div>
                    )}
                    {(status === 'queued' || status === 'processing') && (
                      <div className="mt-1" data-testid="room-tiling">
                        <div className="small text-body-secondary mb-1">{status === 'queued' ? t('Waiting for its turn…') : t('Preparing the 360° view…')}</div>
                        <ProgressBar now={state.percent} label={`${n(state.percent)}%`} variant="success" striped animated aria-label={t('Preparing {name}', { name: r.name })} />
                      </div>
                    )}
                    {status === 'failed' && (
                      <div className="small text-danger" role="alert">
                        {t(r.error || state.message || tk('This photo could not be prepared.'))}
                      </div>
                    )}
                  </div>
                  {visit.can_edit && renaming?.id !== r.id && (
                    <div className="d-flex flex-wrap gap-1 ms-auto">
                      <button type="button" className="btn btn-sm btn-outline-secondary" disabled={busy || i === 0} onClick={() => void saveOrder(move(rooms, i, i - 1))} aria-label={t('Move {name} up', { name: r.name })}>
                        <i className="bi bi-arrow-up" aria-hidden="true" />
                      </button>
                      <button
                        type="button"
                        className="btn btn-sm btn-outline-secondary"
                        disabled={busy || i === rooms.length - 1}
                        onClick={() => void saveOrder(move(rooms, i, i + 1))}
                        aria-label={t('Move {name} down', { name: r.name })}
                      >
                        <i className="bi bi-arrow-down" aria-hidden="true" />
                      </button>
                      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setRenaming({ id: r.id, name: r.name })} aria-label={t('Rename {name}', { name: r.name })}>
                        <i className="bi bi-pencil" aria-hidden="true" />
                      </button>
                      <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setDeleting(r)} aria-label={t('Delete {name}', { name: r.name })}>
                        <i className="bi bi-trash" aria-hidden="true" />
                      </button>
                    </div>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </div>
      <ConfirmDialog
        show={deleting !== null}
        title={t('Delete room')}
        body={t('Delete "{name}"? Its photo, hotspots and points of interest go too. This cannot be undone.', { name: deleting?.name ?? '' })}
        confirmLabel={t('Delete')}
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </section>
  );
}
