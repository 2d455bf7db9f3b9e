import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { Cache, Viewer, type ViewerConfig } from '@photo-sphere-viewer/core';
import { EquirectangularTilesAdapter } from '@photo-sphere-viewer/equirectangular-tiles-adapter';
import { MarkersPlugin } from '@photo-sphere-viewer/markers-plugin';
import { VirtualTourPlugin, type VirtualTourNode } from '@photo-sphere-viewer/virtual-tour-plugin';
import '@photo-sphere-viewer/core/index.css';
import '@photo-sphere-viewer/markers-plugin/index.css';
import '@photo-sphere-viewer/virtual-tour-plugin/index.css';
import type { RoomPanorama } from '@sitewalk/proto';
import { tilesPanorama } from '../../lib/panorama-config';
import type { ViewAngles } from '../../lib/compare-rooms';
import { preloadedBase } from '../../pages/viewer/viewer-preload';
import './panorama.css';

/**
 * The 360 view of every screen that shows rooms (public viewer, tour editor,
 * compare): Photo Sphere Viewer with the tiles adapter (the low-resolution
 * sphere at once, sharp tiles for what is on screen), the virtual tour
 * (hotspots as buttons inside the view, fading transitions turning towards
 * the next room) and markers (points of interest). Imported only by lazy
 * screens, so PSV and three.js never reach the sign-in screen's JavaScript.
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

export interface PanoramaHandle {
  view(): ViewAngles | null;
  setView(v: ViewAngles): void;
  goToRoom(id: number): void;
}

interface Props {
  rooms: TourRoom[];
  /** The room to show; a change moves the view there (with the transition). */
  roomId: number;
  onRoomChange?(id: number): void;
  /** Markers of the current room. */
  markers?: TourMarker[];
  onMarkerSelect?(id: string): void;
  /** A click in the view (not on a hotspot or marker), for the editors. */
  onPick?(pos: { yaw: number; pitch: number }): void;
  onViewChange?(v: ViewAngles): void;
  /** Where the first room opens. */
  initialView?: Partial<ViewAngles>;
  /** Accessible name of the view. */
  label: string;
  /** Translated "Go to {name}" for the hotspot buttons. */
  linkLabel(name: string): string;
  /** Arrow keys turn the view even when it has no focus (the public viewer, a page with no text fields). */
  keyboardAlways?: boolean;
  handleRef?: Ref<PanoramaHandle>;
  className?: string;
  testId?: string;
}

const nodeId = (id: number) => String(id);

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

/**
 * A marker as a real button, so Tab reaches it inside the 360 view and Enter
 * or Space opens it as a click does (PSV only knows pointer clicks); the
 * tooltip shows while it has the focus.
 */
function markerElement(m: TourMarker, select: () => void, tooltip: (show: boolean) => void): HTMLElement {
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

export default function PanoramaViewer(props: Props) {
  const el = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<Viewer | null>(null);
  const propsRef = useRef(props);
  propsRef.current = props;
  const shownRoom = useRef<number | null>(null);
  const markerIds = useRef(new Set<string>());
  // The tour clears every marker when it changes room: markers are put back after each change.
  const [roomVersion, setRoomVersion] = useState(0);
  const { rooms, roomId, markers } = props;
  const builtWith = useRef(rooms);

  useImperativeHandle(
    props.handleRef,
    () => ({
      view: () => {
        const v = viewerRef.current;
        if (!v) return null;
        const p = v.getPosition();
        return { yaw: p.yaw, pitch: p.pitch, zoom: v.getZoomLevel() };
      },
      setView: (view) => {
        const v = viewerRef.current;
        if (!v) return;
        v.rotate({ yaw: view.yaw, pitch: view.pitch });
        v.zoom(view.zoom);
      },
      goToRoom: (id) => void viewerRef.current?.getPlugin<VirtualTourPlugin>(VirtualTourPlugin)?.setCurrentNode(nodeId(id)),
    }),
    [],
  );

  // Created once; later changes of rooms, room and markers are applied below.
  useEffect(() => {
    let viewer: Viewer | null = null;
    let live = true;
    // On /viewer/… index.html's preload script has (or is fetching) the first room's low-resolution
    // sphere: PSV takes it from its cache (keyed by the URL, as its equirectangular adapter reads it)
    // instead of downloading it again. Elsewhere this resolves at once.
    const first = propsRef.current.rooms.find((r) => r.id === propsRef.current.roomId);
    void (first ? preloadedBase(first.panorama.base_url) : Promise.resolve(null)).then((blob) => {
      if (!live) return;
      if (blob && first) Cache.add(first.panorama.base_url, first.panorama.base_url, blob);
      viewer = createViewer();
    });
    return () => {
      live = false;
      viewer?.destroy();
      viewerRef.current = null;
    };
  }, []);

  function createViewer(): Viewer | null {
    if (!el.current) return null;
    const p = propsRef.current;
    const known = new Set(p.rooms.map((r) => r.id));
    const follow = (target: string) => viewerRef.current?.getPlugin<VirtualTourPlugin>(VirtualTourPlugin)?.setCurrentNode(target);
    const config: ViewerConfig = {
      container: el.current,
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
          nodes: p.rooms.map((r) => toNode(r, known)),
          startNodeId: nodeId(p.roomId),
          preload: true,
          showLinkTooltip: true,
          transitionOptions: { showLoader: false, speed: '20rpm', effect: 'fade', rotation: true },
          arrowStyle: {
            element: (link) => {
              const name = String((link.data as { name?: string } | undefined)?.name ?? '');
              return linkElement(name, propsRef.current.linkLabel(name), () => void follow(link.nodeId));
            },
            size: { width: 48, height: 48 },
          },
        }),
      ],
    };
    // Read by the benchmark (bench/viewer-perf.ts): when the 360 view began.
    performance.mark('sw-pano-create');
    const viewer = new Viewer(config);
    viewerRef.current = viewer;
    shownRoom.current = p.roomId;
    el.current.dataset.panoState = 'loading';
    const tour = viewer.getPlugin<VirtualTourPlugin>(VirtualTourPlugin);
    const markersPlugin = viewer.getPlugin<MarkersPlugin>(MarkersPlugin);

    const reportView = () => {
      const pos = viewer.getPosition();
      // Read by the browser tests and the benchmark: where the view looks now.
      if (el.current) {
        el.current.dataset.yaw = pos.yaw.toFixed(3);
        el.current.dataset.pitch = pos.pitch.toFixed(3);
        el.current.dataset.zoom = viewer.getZoomLevel().toFixed(1);
      }
      propsRef.current.onViewChange?.({ yaw: pos.yaw, pitch: pos.pitch, zoom: viewer.getZoomLevel() });
    };
    viewer.addEventListener('panorama-loaded', () => {
      if (el.current) el.current.dataset.panoState = 'ready';
      performance.mark('sw-pano-base');
      reportView();
    });
    viewer.addEventListener('position-updated', reportView);
    viewer.addEventListener('zoom-updated', reportView);
    viewer.addEventListener('click', ({ data }) => {
      if (data.rightclick || data.marker) return;
      // A click on a hotspot button follows it; it places nothing.
      if (data.target?.closest?.('.psv-virtual-tour-link, .psv-marker')) return;
      propsRef.current.onPick?.({ yaw: data.yaw, pitch: data.pitch });
    });
    markersPlugin.addEventListener('select-marker', ({ marker }) => propsRef.current.onMarkerSelect?.(marker.id));
    tour.addEventListener('node-changed', ({ node }) => {
      const id = Number(node.id);
      shownRoom.current = id;
      markerIds.current.clear();
      if (el.current) el.current.dataset.room = node.id;
      setRoomVersion((n) => n + 1);
      propsRef.current.onRoomChange?.(id);
    });
    // Made after the first render: the effects below run again with the viewer there.
    builtWith.current = p.rooms;
    setRoomVersion((n) => n + 1);
    return viewer;
  }

  // Hotspots added or removed, rooms renamed: update the tour's nodes in place
  // (the room on screen keeps loading; a new set of rooms replaces the nodes).
  useEffect(() => {
    const tour = viewerRef.current?.getPlugin<VirtualTourPlugin>(VirtualTourPlugin);
    if (!tour || builtWith.current === rooms) return;
    const before = builtWith.current;
    builtWith.current = rooms;
    const known = new Set(rooms.map((r) => r.id));
    const sameRooms = before.length === rooms.length && before.every((r, i) => r.id === rooms[i].id && r.panorama.base_url === rooms[i].panorama.base_url);
    try {
      if (sameRooms) {
        for (const r of rooms) {
          const node = toNode(r, known);
          tour.updateNode({ id: node.id, name: node.name, caption: node.caption, links: node.links });
        }
      } else {
        const current = shownRoom.current;
        tour.setNodes(
          rooms.map((r) => toNode(r, known)),
          current !== null && known.has(current) ? nodeId(current) : rooms[0] ? nodeId(rooms[0].id) : undefined,
        );
      }
    } catch (err) {
      console.warn(err);
    }
  }, [rooms]);

  useEffect(() => {
    if (shownRoom.current === roomId) return;
    void viewerRef.current?.getPlugin<VirtualTourPlugin>(VirtualTourPlugin)?.setCurrentNode(nodeId(roomId));
  }, [roomId]);

  useEffect(() => {
    const plugin = viewerRef.current?.getPlugin<MarkersPlugin>(MarkersPlugin);
    if (!plugin) return;
    const wanted = new Map((markers ?? []).map((m) => [m.id, m]));
    for (const id of markerIds.current) {
      if (!wanted.has(id)) {
        try {
          plugin.removeMarker(id);
        } catch {
          /* gone with the previous room */
        }
        markerIds.current.delete(id);
      }
    }
    for (const m of wanted.values()) {
      const tooltip = (show: boolean) => {
        try {
          if (show) plugin.showMarkerTooltip(m.id);
          else plugin.hideMarkerTooltip(m.id);
        } catch {
          /* removed meanwhile */
        }
      };
      const element = markerElement(m, () => propsRef.current.onMarkerSelect?.(m.id), tooltip);
      const config = { id: m.id, position: { yaw: m.yaw, pitch: m.pitch }, element, size: { width: 36, height: 36 }, anchor: 'center center', tooltip: m.title, data: { kind: m.kind } };
      try {
        if (markerIds.current.has(m.id)) plugin.updateMarker(config);
        else plugin.addMarker(config);
        markerIds.current.add(m.id);
      } catch (err) {
        console.warn(err);
      }
    }
  }, [markers, roomVersion]);

  return <div ref={el} className={`sw-pano ${props.className ?? ''}`} role="application" aria-label={props.label} data-testid={props.testId ?? 'panorama'} dir="ltr" />;
}
