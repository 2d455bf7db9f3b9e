import { Viewer, type ViewerConfig } from '@photo-sphere-viewer/core';
import { EquirectangularTilesAdapter } from '@photo-sphere-viewer/equirectangular-tiles-adapter';
import { MarkersPlugin } from '@photo-sphere-viewer/markers-plugin';
import { VirtualTourPlugin, type VirtualTourNode } from '@photo-sphere-viewer/virtual-tour-plugin';
import '@photo-sphere-viewer/core/index.css';
import '@photo-sphere-viewer/markers-plugin/index.css';
import '@photo-sphere-viewer/virtual-tour-plugin/index.css';
import type { RoomPanorama } from '@sitewalk/proto';
import { tilesPanorama } from '../../lib/panorama-config';
import type { ViewAngles } from '../../lib/compare-rooms';
import './panorama.css';

/**
 * Photo Sphere Viewer as SiteWalk sets it up, without React: the tiles
 * adapter (the low-resolution sphere at once, sharp tiles for what is on
 * screen), the virtual tour (hotspots as buttons, fading transitions turning
 * towards the next room) and markers (points of interest). Two callers: the
 * React component (panorama-viewer.tsx) of every 360 screen, and the public
 * viewer's boot (panorama-boot.ts), which starts the sphere before the app
 * has even run and hands the viewer over to the component when it mounts.
 * So this module must never import React or anything of the app's entry.
 */

export interface TourLink {
  id_room_target: number;
  target_name: string;
  yaw: number;
  pitch: number;
}

export interface TourRoom {
  id: number;
  name: string;
  panorama: RoomPanorama;
  hotspots: TourLink[];
  thumbnail_url?: string | null;
}

export interface TourMarker {
  id: string;
  yaw: number;
  pitch: number;
  /** Tooltip, and the accessible name unless `label` is given. */
  title: string;
  /** Accessible name of the marker's button (a translated "Point of interest: …"). */
  label?: string;
  kind: 'poi' | 'draft' | 'snag';
  /** Extra classes of the marker (a snag's status colour). */
  className?: string;
}

/** What the viewer reads from its owner, always through `current` (the owner changes at the hand-over). */
export interface PanoramaOptions {
  rooms: TourRoom[];
  /** The room to show first. */
  roomId: number;
  onRoomChange?(id: number): void;
  onMarkerSelect?(id: string): void;
  /** A click in the view (not on a hotspot or marker), for the editors. */
  onPick?(pos: { yaw: number; pitch: number }): void;
  onViewChange?(v: ViewAngles): void;
  /** Where the first room opens. */
  initialView?: Partial<ViewAngles>;
  /** Translated "Go to {name}" for the hotspot buttons. */
  linkLabel(name: string): string;
  /** Arrow keys turn the view even when it has no focus (the public viewer, a page with no text fields). */
  keyboardAlways?: boolean;
}

export interface PanoramaSession {
  viewer: Viewer;
  /** PSV's container, a child of the host; moved into another host at the hand-over. */
  container: HTMLElement;
  /** The element the browser tests and the benchmark read (data-pano-state, data-yaw, data-room, …). */
  host: HTMLElement;
  options: { current: PanoramaOptions };
  /** The room on screen (the tour's current node). */
  shownRoom: number;
  /** Called after the tour changed room (the owner puts the markers back). */
  onNodeChanged?(): void;
}

export const nodeId = (id: number) => String(id);

function toNode(room: TourRoom, known: ReadonlySet<number>): VirtualTourNode {
  return {
    id: nodeId(room.id),
    name: room.name,
    caption: room.name,
    panorama: tilesPanorama(room.panorama),
    thumbnail: room.thumbnail_url ?? undefined,
    links: room.hotspots
      .filter((h) => known.has(h.id_room_target))
      .map((h) => ({ nodeId: nodeId(h.id_room_target), position: { yaw: h.yaw, pitch: h.pitch }, data: { name: h.target_name } })),
  };
}

export const tourNodes = (rooms: TourRoom[]) => {
  const known = new Set(rooms.map((r) => r.id));
  return rooms.map((r) => toNode(r, known));
};

function linkElement(name: string, label: string, follow: () => void): HTMLElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'sw-pano-link';
  b.setAttribute('aria-label', label);
  b.title = label;
  b.dataset.testid = 'pano-hotspot';
  b.dataset.target = name;
  b.innerHTML = '<i class="bi bi-arrow-up-circle-fill" aria-hidden="true"></i>';
  b.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      follow();
    }
  });
  return b;
}

/** Names the hotspot buttons again (the translations may arrive after the first room was drawn). */
export function relabelLinks(session: PanoramaSession): void {
  for (const b of session.container.querySelectorAll<HTMLElement>('.sw-pano-link')) {
    const label = session.options.current.linkLabel(b.dataset.target ?? '');
    b.setAttribute('aria-label', label);
    b.title = label;
  }
}

/**
 * A marker as a real button, so Tab reaches it inside the 360 view and Enter
 * or Space opens it as a click does (PSV only knows pointer clicks); the
 * tooltip shows while it has the focus.
 */
export function markerElement(m: TourMarker, select: () => void, tooltip: (show: boolean) => void): HTMLElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = `sw-pano-marker sw-pano-marker-${m.kind} ${m.className ?? ''}`;
  b.setAttribute('aria-label', m.label ?? m.title);
  b.dataset.testid = `pano-${m.kind}`;
  b.dataset.marker = m.id;
  const icon = m.kind === 'poi' ? 'bi-info-circle-fill' : m.kind === 'snag' ? 'bi-exclamation-lg' : 'bi-plus-circle-dotted';
  b.innerHTML = `<i class="bi ${icon}" aria-hidden="true"></i>`;
  b.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      select();
    }
  });
  b.addEventListener('focus', () => tooltip(true));
  b.addEventListener('blur', () => tooltip(false));
  return b;
}

/**
 * Opens a room of the tour. A load that fails shows PSV's error inside the
 * view; an interrupted one (another room asked meanwhile) is no error. Either
 * way it is not reported a second time as an unhandled error.
 */
export function showRoom(viewer: Viewer | null | undefined, roomId: number | string): void {
  viewer
    ?.getPlugin<VirtualTourPlugin>(VirtualTourPlugin)
    ?.setCurrentNode(typeof roomId === 'number' ? nodeId(roomId) : roomId)
    .catch((err: unknown) => console.warn(err));
}

/** Longest a viewer taken off the page waits for its panorama load before it is destroyed anyway. */
const DESTROY_WAIT_MS = 10_000;

/**
 * Destroys the viewer of a screen that is gone. From now on it tells its
 * former owner nothing (a room it finishes opening must not move the user's
 * address back to it). PSV finishes a panorama load it has begun (a room
 * opened, a hotspot followed) and then draws into the viewer: a viewer
 * destroyed in the middle throws from inside PSV, which the user sees as
 * "Something went wrong" on the next screen. So a viewer still loading is
 * destroyed when its load settles; its element has already left the page.
 */
export function destroySession(session: PanoramaSession): void {
  const { viewer } = session;
  session.onNodeChanged = undefined;
  session.options = { current: { ...session.options.current, onRoomChange: undefined, onMarkerSelect: undefined, onPick: undefined, onViewChange: undefined } };
  const busy = () =>
    !!(viewer.state as { loadingPromise?: unknown }).loadingPromise ||
    // The tour's own state: it is still choosing or rotating towards the next room.
    !!(viewer.getPlugin(VirtualTourPlugin) as unknown as { state?: { loadingNode?: unknown } } | null)?.state?.loadingNode;
  const since = Date.now();
  const attempt = () => {
    if (busy() && Date.now() - since < DESTROY_WAIT_MS) setTimeout(attempt, 100);
    else viewer.destroy();
  };
  attempt();
}

/** Moves the viewer into another host element (the React component's), with what the tests read on it. */
export function moveToHost(session: PanoramaSession, host: HTMLElement): void {
  for (const [k, v] of Object.entries(session.host.dataset)) if (k.startsWith('pano') || k === 'yaw' || k === 'pitch' || k === 'zoom' || k === 'room') host.dataset[k] = v;
  host.appendChild(session.container);
  session.host = host;
}

/**
 * Creates the viewer in a new container inside `host`, showing `options.current.roomId`.
 * With `later`, the rooms are given (and the first one loaded) only when `later` resolves:
 * WebGL and the viewer start meanwhile (the early viewer waits for its first sphere's image so).
 */
export function createPanorama(host: HTMLElement, options: { current: PanoramaOptions }, later?: Promise<unknown>): PanoramaSession {
  const p = options.current;
  const container = document.createElement('div');
  container.className = 'sw-pano-container';
  host.appendChild(container);
  const session = {} as PanoramaSession;
  const follow = (target: string) => showRoom(session.viewer, target);
  const config: ViewerConfig = {
    container,
    adapter: EquirectangularTilesAdapter.withConfig({ baseBlur: false }),
    defaultYaw: p.initialView?.yaw ?? 0,
    defaultPitch: p.initialView?.pitch ?? 0,
    defaultZoomLvl: p.initialView?.zoom ?? 0,
    navbar: ['zoom', 'move', 'caption', 'fullscreen'],
    keyboard: p.keyboardAlways ? 'always' : 'fullscreen',
    loadingTxt: '',
    touchmoveTwoFingers: false,
    mousewheelCtrlKey: false,
    plugins: [
      MarkersPlugin.withConfig({ clickEventOnMarker: false }),
      VirtualTourPlugin.withConfig({
        dataMode: 'client',
        positionMode: 'manual',
        renderMode: '2d',
        nodes: later ? undefined : tourNodes(p.rooms),
        startNodeId: nodeId(p.roomId),
        preload: true,
        showLinkTooltip: true,
        transitionOptions: { showLoader: false, speed: '20rpm', effect: 'fade', rotation: true },
        arrowStyle: {
          element: (link) => {
            const name = String((link.data as { name?: string } | undefined)?.name ?? '');
            return linkElement(name, session.options.current.linkLabel(name), () => follow(link.nodeId));
          },
          size: { width: 48, height: 48 },
        },
      }),
    ],
  };
  // Read by the benchmark (bench/viewer-perf.ts): when the 360 view began.
  performance.mark('sw-pano-create');
  Object.assign(session, { container, host, options, shownRoom: p.roomId });
  const viewer = new Viewer(config);
  session.viewer = viewer;
  host.dataset.panoState = 'loading';
  const tour = viewer.getPlugin<VirtualTourPlugin>(VirtualTourPlugin);
  const markersPlugin = viewer.getPlugin<MarkersPlugin>(MarkersPlugin);

  const reportView = () => {
    const pos = viewer.getPosition();
    // Read by the browser tests and the benchmark: where the view looks now.
    session.host.dataset.yaw = pos.yaw.toFixed(3);
    session.host.dataset.pitch = pos.pitch.toFixed(3);
    session.host.dataset.zoom = viewer.getZoomLevel().toFixed(1);
    session.options.current.onViewChange?.({ yaw: pos.yaw, pitch: pos.pitch, zoom: viewer.getZoomLevel() });
  };
  viewer.addEventListener('panorama-loaded', () => {
    session.host.dataset.panoState = 'ready';
    performance.mark('sw-pano-base');
    reportView();
  });
  viewer.addEventListener('position-updated', reportView);
  viewer.addEventListener('zoom-updated', reportView);
  viewer.addEventListener('click', ({ data }) => {
    if (data.rightclick || data.marker) return;
    // A click on a hotspot button follows it; it places nothing.
    if (data.target?.closest?.('.psv-virtual-tour-link, .psv-marker')) return;
    session.options.current.onPick?.({ yaw: data.yaw, pitch: data.pitch });
  });
  markersPlugin.addEventListener('select-marker', ({ marker }) => session.options.current.onMarkerSelect?.(marker.id));
  tour.addEventListener('node-changed', ({ node }) => {
    const id = Number(node.id);
    session.shownRoom = id;
    session.host.dataset.room = node.id;
    session.onNodeChanged?.();
    session.options.current.onRoomChange?.(id);
  });
  // The first room of a viewer made ahead of its image: the first panorama shows without a transition.
  if (later) void later.then(() => tour.setNodes(tourNodes(session.options.current.rooms), nodeId(session.options.current.roomId)));
  return session;
}

/** The public viewer's early viewer (panorama-boot.ts), waiting for its owner. */
export interface BootedPanorama {
  session: PanoramaSession;
  /** The visit code it shows. */
  code: string;
  /** Taken by a component: nobody else may use or destroy it. */
  taken: boolean;
}

declare global {
  interface Window {
    /** Set by panorama-boot.ts on /viewer/…: the viewer it made, or null when it made none. */
    __swPanoBoot?: Promise<BootedPanorama | null>;
  }
}

/**
 * The early viewer when it shows these rooms from this room, once: the
 * component that takes it becomes its owner. Waits for it when it is still
 * being made; null when there is none or it does not match.
 */
export async function takeBootedPanorama(rooms: TourRoom[], roomId: number): Promise<PanoramaSession | null> {
  const pending = typeof window === 'undefined' ? undefined : window.__swPanoBoot;
  if (!pending) return null;
  const booted = await pending.catch(() => null);
  if (!booted || booted.taken) return null;
  const own = booted.session.options.current;
  const same = own.roomId === roomId && own.rooms.length === rooms.length && own.rooms.every((r, i) => r.id === rooms[i]!.id && r.panorama.base_url === rooms[i]!.panorama.base_url);
  booted.taken = true;
  if (!same) {
    // Another visit or room than the screen shows: it goes.
    destroySession(booted.session);
    booted.session.host.remove();
    return null;
  }
  return booted.session;
}
