import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { Cache } from '@photo-sphere-viewer/core';
import { MarkersPlugin } from '@photo-sphere-viewer/markers-plugin';
import { VirtualTourPlugin } from '@photo-sphere-viewer/virtual-tour-plugin';
import type { ViewAngles } from '../../lib/compare-rooms';
import { preloadedBase } from '../../pages/viewer/viewer-preload';
import { createPanorama, destroySession, markerElement, showRoom, moveToHost, nodeId, relabelLinks, takeBootedPanorama, tourNodes, type PanoramaOptions, type PanoramaSession, type TourMarker } from './panorama-core';

export type { TourLink, TourMarker, TourRoom } from './panorama-core';

/**
 * The 360 view of every screen that shows rooms (public viewer, tour editor,
 * compare): Photo Sphere Viewer as panorama-core.ts sets it up, driven by
 * React props. Imported only by lazy screens, so PSV and three.js never reach
 * the sign-in screen's JavaScript. On /viewer/… it takes over the viewer that
 * panorama-boot.ts made before the app ran, instead of making a second one.
 */

export interface PanoramaHandle {
  view(): ViewAngles | null;
  setView(v: ViewAngles): void;
  goToRoom(id: number): void;
}

interface Props extends PanoramaOptions {
  /** The room to show; a change moves the view there (with the transition). */
  roomId: number;
  /** Markers of the current room. */
  markers?: TourMarker[];
  /** Accessible name of the view. */
  label: string;
  /** Take over the viewer panorama-boot.ts made on /viewer/… when it shows the same room (the public viewer). */
  adoptBooted?: boolean;
  handleRef?: Ref<PanoramaHandle>;
  className?: string;
  testId?: string;
}

export default function PanoramaViewer(props: Props) {
  const el = useRef<HTMLDivElement>(null);
  const sessionRef = useRef<PanoramaSession | null>(null);
  const propsRef = useRef<Props>(props);
  propsRef.current = props;
  const markerIds = useRef(new Set<string>());
  // The tour clears every marker when it changes room: markers are put back after each change.
  const [roomVersion, setRoomVersion] = useState(0);
  const { rooms, roomId, markers } = props;
  const builtWith = useRef(rooms);
  const viewer = () => sessionRef.current?.viewer ?? null;

  useImperativeHandle(
    props.handleRef,
    () => ({
      view: () => {
        const v = viewer();
        if (!v) return null;
        const p = v.getPosition();
        return { yaw: p.yaw, pitch: p.pitch, zoom: v.getZoomLevel() };
      },
      setView: (view) => {
        const v = viewer();
        if (!v) return;
        v.rotate({ yaw: view.yaw, pitch: view.pitch });
        v.zoom(view.zoom);
      },
      goToRoom: (id) => showRoom(viewer(), id),
    }),
    [],
  );

  // Created (or taken over) once; later changes of rooms, room and markers are applied below.
  useEffect(() => {
    let live = true;
    let session: PanoramaSession | null = null;
    const p = propsRef.current;
    const own = (s: PanoramaSession) => {
      session = s;
      sessionRef.current = s;
      s.onNodeChanged = () => {
        markerIds.current.clear();
        setRoomVersion((n) => n + 1);
      };
      // Made after the first render: the effects below run again with the viewer there.
      builtWith.current = s.options.current.rooms;
      setRoomVersion((n) => n + 1);
      // The screen moved to another room while the viewer was being made.
      if (propsRef.current.roomId !== s.shownRoom) showRoom(s.viewer, propsRef.current.roomId);
    };
    void (async () => {
      const booted = p.adoptBooted ? await takeBootedPanorama(p.rooms, p.roomId) : null;
      if (!live || !el.current) {
        if (booted) destroySession(booted);
        booted?.host.remove();
        return;
      }
      if (booted) {
        const layer = booted.host;
        moveToHost(booted, el.current);
        layer.remove();
        booted.options = propsRef;
        relabelLinks(booted);
        own(booted);
        // The first view was reported before this screen listened (the sheet's view cone needs it).
        if (booted.host.dataset.panoState === 'ready') {
          const pos = booted.viewer.getPosition();
          propsRef.current.onViewChange?.({ yaw: pos.yaw, pitch: pos.pitch, zoom: booted.viewer.getZoomLevel() });
        }
        return;
      }
      // On /viewer/… index.html's preload script has (or is fetching) the first room's low-resolution
      // sphere: PSV takes it from its cache (keyed by the URL, as its equirectangular adapter reads it)
      // instead of downloading it again. Elsewhere this resolves at once.
      const first = p.rooms.find((r) => r.id === p.roomId);
      const blob = first ? await preloadedBase(first.panorama.base_url) : null;
      if (!live || !el.current) return;
      if (blob && first) Cache.add(first.panorama.base_url, first.panorama.base_url, blob);
      own(createPanorama(el.current, propsRef));
    })();
    return () => {
      live = false;
      if (session) destroySession(session);
      session?.container.remove();
      sessionRef.current = null;
    };
  }, []);

  // The hotspot buttons' names follow the language (it may arrive after the first room was drawn).
  const linkName = props.linkLabel('{name}');
  useEffect(() => {
    if (sessionRef.current) relabelLinks(sessionRef.current);
  }, [linkName, roomVersion]);

  // Hotspots added or removed, rooms renamed: update the tour's nodes in place
  // (the room on screen keeps loading; a new set of rooms replaces the nodes).
  useEffect(() => {
    const tour = viewer()?.getPlugin<VirtualTourPlugin>(VirtualTourPlugin);
    if (!tour || builtWith.current === rooms) return;
    const before = builtWith.current;
    builtWith.current = rooms;
    const known = new Set(rooms.map((r) => r.id));
    const nodes = tourNodes(rooms);
    const sameRooms = before.length === rooms.length && before.every((r, i) => r.id === rooms[i].id && r.panorama.base_url === rooms[i].panorama.base_url);
    try {
      if (sameRooms) {
        for (const node of nodes) tour.updateNode({ id: node.id, name: node.name, caption: node.caption, links: node.links });
      } else {
        const current = sessionRef.current?.shownRoom ?? null;
        tour.setNodes(
          nodes,
          current !== null && known.has(current) ? nodeId(current) : rooms[0] ? nodeId(rooms[0].id) : undefined,
        );
      }
    } catch (err) {
      console.warn(err);
    }
  }, [rooms]);

  useEffect(() => {
    if (!sessionRef.current || sessionRef.current.shownRoom === roomId) return;
    showRoom(viewer(), roomId);
  }, [roomId]);

  useEffect(() => {
    const plugin = viewer()?.getPlugin<MarkersPlugin>(MarkersPlugin);
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
