import { Cache } from '@photo-sphere-viewer/core';
import { startRoomId, type BootWindow, type ViewerPreload } from '../../pages/viewer/viewer-preload';
import { createPanorama, type BootedPanorama, type TourRoom } from './panorama-core';

/**
 * The public viewer's first sphere without waiting for the app. index.html's
 * preload script (pages/viewer/viewer-preload.ts) imports this chunk on
 * /viewer/… at once, beside the app's own JavaScript; as soon as Photo Sphere
 * Viewer, the visit's answer and the start room's low-resolution sphere are
 * here, it makes the viewer in a layer over the whole page — the same viewer
 * the screen would make, from the same room, looking the same way — before
 * React, the router, the settings and the translations have run. The viewer
 * screen then takes it over (panorama-viewer.tsx, takeBootedPanorama): moves
 * it into its place under the title bar and wires its markers, links and
 * events. When anything here fails, the screen makes its own viewer.
 *
 * Imports nothing the app's entry holds (React, stores, i18n): a chunk of its
 * own, built beside the viewer chunks (client/viewer-preload-plugin.ts). The
 * preload script sets window.__swPanoBoot to a promise at once, so the screen
 * knows to wait for it even before this chunk has arrived; the chunk starts
 * through the script's hook when it runs.
 */

interface ViewerVisitShape {
  code: string;
  start_room: number | null;
  poi: { id_room: number; yaw: number; pitch: number } | null;
  rooms: TourRoom[];
}

async function bootPanorama(preload: ViewerPreload): Promise<BootedPanorama | null> {
  const answer = await preload.visit;
  const visit = answer?.status === 200 ? (answer.body as { data?: ViewerVisitShape } | null)?.data : null;
  if (!visit || !Array.isArray(visit.rooms) || !visit.rooms.length) return null;
  const roomId = startRoomId(visit, preload.room);
  const room = visit.rooms.find((r) => r.id === roomId);
  if (!room?.panorama) return null;
  // The viewer (WebGL, PSV, plugins: the slowest part of its start) is made now; its first room is given once
  // the low-resolution image the preload script is fetching is in PSV's cache, so PSV does not fetch it twice.
  const imageIn = preload.base.then((base) => {
    if (base && base.url === room.panorama.base_url) Cache.add(base.url, base.url, base.blob);
  });
  // A layer over the page until the screen takes the viewer into its place.
  const host = document.createElement('div');
  host.className = 'sw-pano sw-pano-boot';
  host.dataset.testid = 'panorama-boot';
  // Goes with the viewer to the screen's element (moveToHost): read by the browser tests.
  host.dataset.panoEarly = 'true';
  document.body.appendChild(host);
  const options = {
    rooms: visit.rooms,
    roomId: room.id,
    // As the screen does: a point of interest of the address is where the view first looks.
    initialView: visit.poi ? { yaw: visit.poi.yaw, pitch: visit.poi.pitch } : undefined,
    // English until the screen with its translations takes over and names them again.
    linkLabel: (name: string) => `Go to ${name}`,
    keyboardAlways: true,
  };
  const session = createPanorama(host, { current: options }, imageIn);
  return { session, code: visit.code, taken: false };
}

// The preload script waits for this call (set only on /viewer/…, once).
const hook = (window as unknown as BootWindow).__swPanoBootHook;
if (hook) {
  delete (window as unknown as BootWindow).__swPanoBootHook;
  hook((p) =>
    bootPanorama(p).catch((err: unknown) => {
      console.warn(err);
      return null;
    }),
  );
}
