import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../../stores/auth.store';
import type { PanoramaHandle, TourMarker } from '../panorama/panorama-viewer';
import type { SnagPin } from './sheet-snag-pins';
import { SnagPanel, type SnagDraft } from './snag-panel';
import { statusLabel, applySnagEvent, snagFromSearch, snagIdOfMarker, snagMarkerId } from './snag-logic';
import { useSnagEvents } from './use-snag-events';
import { useVisitOfCodeQuery, useVisitSnagsQuery } from './use-pinned-snags-query';
import './snags.css';

const DRAFT_MARKER = 'snag-draft';

/**
 * The snag layer of the visit viewer, for people of the project who are
 * signed in (the public viewer shows no snags): the pins of the room on
 * screen and of the sheet, the "add a snag" mode (a click in the view or on
 * the sheet places it), the snag panel, live changes from the project's room,
 * and the deep link `?snag={id}` that opens a snag turned towards it.
 */
export function useVisitSnags(opts: { code: string; roomId: number | null; pano: RefObject<PanoramaHandle | null>; goToRoom(id: number): void }) {
  const { t } = useTranslation();
  const signedIn = useAuthStore((s) => s.status === 'authenticated');
  const visit = useVisitOfCodeQuery(signedIn ? opts.code : '').data ?? null;
  const { snags, setSnags, reload } = useVisitSnagsQuery(visit?.id ?? null);
  const [openId, setOpenId] = useState<number | null>(null);
  const [draft, setDraft] = useState<SnagDraft | null>(null);
  const [adding, setAdding] = useState(false);
  const asked = useRef(typeof window === 'undefined' ? null : snagFromSearch(window.location.search));
  const optsRef = useRef(opts);
  optsRef.current = opts;

  useSnagEvents(
    visit ? [visit.id_project] : [],
    (e) => {
      setSnags((list) => applySnagEvent(list, e, (a) => a.id_visit === visit?.id));
      // The panel reads its snag again by itself (useSnagDetail); a deleted one closes.
      if (e.annotation.id === openId && e.action === 'deleted') setOpenId(null);
    },
    reload,
  );

  // The deep link: once the snags are known, go to the snag's room, turn towards it and open it.
  useEffect(() => {
    const id = asked.current;
    if (id === null || !snags.length) return;
    const s = snags.find((a) => a.id === id);
    if (!s) return;
    asked.current = null;
    setOpenId(s.id);
    if (s.id_room && s.id_room !== optsRef.current.roomId) optsRef.current.goToRoom(s.id_room);
    if (s.yaw === null || s.pitch === null) return;
    // The 360 view may still be loading: turn it as soon as it is there.
    let tries = 0;
    const timer = setInterval(() => {
      const pano = optsRef.current.pano.current;
      if (pano?.view() || ++tries > 40) {
        clearInterval(timer);
        pano?.setView({ yaw: s.yaw!, pitch: s.pitch!, zoom: s.zoom ?? pano.view()?.zoom ?? 0 });
      }
    }, 250);
    return () => clearInterval(timer);
  }, [snags]);

  const markers = useMemo<TourMarker[]>(() => {
    const inRoom = snags
      .filter((s) => s.id_room === opts.roomId && s.yaw !== null && s.pitch !== null)
      .map<TourMarker>((s) => ({
        id: snagMarkerId(s.id),
        yaw: s.yaw!,
        pitch: s.pitch!,
        title: `${s.title} (${statusLabel(t, s.status)})`,
        kind: 'snag',
        className: `sw-snag-${s.status}${s.id === openId ? ' is-open' : ''}`,
      }));
    if (draft?.id_room === opts.roomId && draft.yaw != null && draft.pitch != null) {
      inRoom.push({ id: DRAFT_MARKER, yaw: draft.yaw, pitch: draft.pitch, title: t('New snag'), kind: 'draft' });
    }
    return inRoom;
  }, [snags, opts.roomId, openId, draft, t]);

  const pinsOn = useCallback(
    (mapId: number | null | undefined): SnagPin[] =>
      mapId == null
        ? []
        : snags
            .filter((s) => s.id_map === mapId && s.x !== null && s.y !== null)
            .map((s) => ({ id: s.id, x: s.x!, y: s.y!, status: s.status, title: s.title, open: s.id === openId })),
    [snags, openId],
  );

  const open = (id: number) => {
    setDraft(null);
    setAdding(false);
    setOpenId(id);
  };

  /** A marker of the 360 view was chosen: true when it was a snag's. */
  const selectMarker = (markerId: string): boolean => {
    const id = snagIdOfMarker(markerId);
    if (id === null) return markerId === DRAFT_MARKER;
    open(id);
    return true;
  };

  /** A click in the 360 view: places the new snag while adding. */
  const pick = (pos: { yaw: number; pitch: number }) => {
    if (!adding || !visit || opts.roomId === null) return;
    setOpenId(null);
    setDraft({ id_visit: visit.id, id_project: visit.id_project, id_room: opts.roomId, yaw: pos.yaw, pitch: pos.pitch, zoom: opts.pano.current?.view()?.zoom ?? null });
    setAdding(false);
  };

  /** A click on the sheet: places the new snag there while adding. */
  const pickOnSheet = adding && visit ? (mapId: number, x: number, y: number) => {
    setOpenId(null);
    setDraft({ id_visit: visit.id, id_project: visit.id_project, id_map: mapId, x, y });
    setAdding(false);
  } : undefined;

  const canAdd = !!visit?.can_edit;
  const toolbar: ReactNode = canAdd ? (
    <button
      type="button"
      className={`btn btn-sm ${adding ? 'btn-danger' : 'btn-outline-danger'}`}
      aria-pressed={adding}
      onClick={() => {
        setAdding((a) => !a);
        setDraft(null);
      }}
      data-testid="viewer-add-snag"
    >
      <i className="bi bi-exclamation-triangle me-1" aria-hidden="true" />
      {adding ? t('Cancel') : t('Add a snag')}
    </button>
  ) : null;

  const overlay: ReactNode = (
    <>
      {adding && (
        <div className="sw-snag-add-hint alert alert-warning py-1 px-2 small mb-0 shadow" role="status" data-testid="snag-add-hint">
          {t('Click where the snag is, in the view or on the sheet.')}
        </div>
      )}
      {(openId !== null || draft) && (
        <SnagPanel
          snagId={openId}
          draft={draft}
          onClose={() => {
            setOpenId(null);
            setDraft(null);
          }}
          onSaved={(s) => {
            setDraft(null);
            setOpenId(s.id);
            const { can_edit: _c, history: _h, ...shared } = s;
            setSnags((list) => (list.some((a) => a.id === s.id) ? list.map((a) => (a.id === s.id ? shared : a)) : [...list, shared]));
          }}
          onDeleted={(id) => setSnags((list) => list.filter((a) => a.id !== id))}
        />
      )}
    </>
  );

  return { enabled: !!visit, markers, pinsOn, selectMarker, pick, pickOnSheet, toolbar, overlay, adding, open };
}
