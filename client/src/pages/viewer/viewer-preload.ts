/**
 * The public viewer's head start. index.html runs this tiny script (built on
 * its own by client/viewer-preload-plugin.ts, a few hundred bytes, no
 * framework) before the app's JavaScript has even arrived: on /viewer/… it
 * asks GET /api/viewer-visit at once, then fetches the start room's
 * low-resolution sphere, and asks the browser for the viewer screen's
 * chunks (Photo Sphere Viewer, three.js) in parallel with the app's. The
 * viewer screen takes the answer and the image from here instead of asking
 * again, so the sphere no longer waits for the app's start (settings,
 * translations, sign-in) nor for one download after another.
 *
 * The build turns this one file into that script, so it imports nothing.
 * The address rules at the top are shared with the screen (pure, unit-tested).
 */

export interface ViewerAddress {
  code: string;
  room: number | null;
  poi: number | null;
}

/** A database id in an address segment ('12'), else null ('', '0', 'abc', '1e3'). */
export const positiveInt = (s: string | undefined | null): number | null => (s && /^[1-9]\d{0,9}$/.test(s) ? Number(s) : null);

/** The viewer's address parts, or null when the path is not the viewer's. */
export function parseViewerPath(pathname: string): ViewerAddress | null {
  const m = /^\/viewer\/([^/]+)(?:\/([^/]*))?(?:\/([^/]*))?\/?$/.exec(pathname);
  if (!m) return null;
  let code: string;
  try {
    code = decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
  return { code, room: positiveInt(m[2]), poi: positiveInt(m[3]) };
}

/** The query of GET /viewer-visit for an address (the point of interest only when one is asked). */
export function viewerVisitQuery(a: Pick<ViewerAddress, 'code' | 'poi'>): string {
  const q = new URLSearchParams({ code: a.code });
  if (a.poi) q.set('poi', String(a.poi));
  return q.toString();
}

interface VisitRooms {
  start_room: number | null;
  poi: { id_room: number } | null;
  rooms: { id: number }[];
}

/** The room to open: the asked point of interest's, else the asked room when the visit shows it, else the visit's first. */
export function startRoomId(visit: VisitRooms, askedRoom: number | null): number | null {
  if (visit.poi) return visit.poi.id_room;
  if (askedRoom && visit.rooms.some((r) => r.id === askedRoom)) return askedRoom;
  return visit.start_room;
}

export interface ViewerPreload {
  /** viewerVisitQuery() of the address it asked for. */
  query: string;
  /** GET /api/viewer-visit: status and parsed body; null when the request failed. */
  visit: Promise<{ status: number; body: unknown } | null>;
  /** The start room's low-resolution sphere (panorama.base_url); null when there is none or it failed. */
  base: Promise<{ url: string; blob: Blob } | null>;
  /** The room the address asks for (the start room is worked out from the answer). */
  room: number | null;
  /** The screen took the visit answer (a "Try again" asks the server afresh). */
  visitTaken?: boolean;
}

declare global {
  interface Window {
    __swViewerPreload?: ViewerPreload;
  }
}

/** The meta tag the server adds on /viewer/… with the start room's low-resolution sphere (api/src/http/viewer-page.ts). */
export const VIEWER_START_META = 'sw-viewer-start';

/** Whether two signed file addresses name the same file (the path; the expiry and signature may differ). */
export const sameFile = (a: string, b: string): boolean => a.split('?')[0] === b.split('?')[0];

/** The meta tag with the app's own script when the server moved it here from the page (api/src/http/viewer-page.ts). */
export const VIEWER_APP_META = 'sw-app-entry';
/** The app starts at the latest this long after the preload, sphere or not. */
export const APP_WAIT_CAP_MS = 1500;

/** The meta tag the build fills with the viewer screen's chunks (see viewer-preload-plugin.ts). */
export const VIEWER_CHUNKS_META = 'sw-viewer-chunks';
/** The meta tag with the chunk of components/panorama/panorama-boot.ts first, then the files it needs. */
export const VIEWER_BOOT_META = 'sw-viewer-boot';

/** How components/panorama/panorama-boot.ts is started (typed loosely: this script imports nothing). */
export type BootWindow = {
  /** Called by the boot chunk when it runs, with its start function. */
  __swPanoBootHook?: (bootPanorama: (p: ViewerPreload) => Promise<unknown>) => void;
};

interface VisitShape {
  start_room: number | null;
  poi: { id_room: number } | null;
  rooms: { id: number; panorama?: { base_url?: string | null } | null }[];
}

function visitOf(answer: { status: number; body: unknown } | null): VisitShape | null {
  if (!answer || answer.status !== 200) return null;
  const data = (answer.body as { data?: VisitShape } | null)?.data;
  return data && Array.isArray(data.rooms) ? data : null;
}

/**
 * On /viewer/… only: asks for the visit, its start room's low-resolution
 * sphere and the viewer's chunks at once, and starts the early viewer
 * (panorama-boot.ts, from the build's meta tag, or `loadBoot` in the dev server).
 */
export function startViewerPreload(w: Window = window, loadBoot?: () => Promise<unknown>): void {
  // The app's script when the server handed it here (fetched already, a modulepreload in the page): it runs once the
  // sphere is drawn — or at once when nothing here got that far, so the app always starts.
  const entry = w.document.querySelector<HTMLMetaElement>(`meta[name="${VIEWER_APP_META}"]`)?.content;
  try {
    preloadViewer(w, loadBoot);
  } finally {
    if (entry) void afterEarlySphere(APP_WAIT_CAP_MS, w).then(() => import(/* @vite-ignore */ entry));
  }
}

function preloadViewer(w: Window, loadBoot?: () => Promise<unknown>): void {
  const address = parseViewerPath(w.location.pathname);
  if (!address || w.__swViewerPreload) return;
  // Read by the benchmark (bench/viewer-perf.ts), as the other sw- marks.
  w.performance.mark('sw-preload');
  const query = viewerVisitQuery(address);
  const visit = fetch(`/api/viewer-visit?${query}`, { credentials: 'same-origin', headers: { Accept: 'application/json' } }).then(
    async (r) => ({ status: r.status, body: await r.json().catch(() => null) }),
    () => null,
  );
  const fetchBlob = (url: string) =>
    fetch(url, { credentials: 'same-origin' })
      .then((r) => (r.ok ? r.blob() : null))
      .catch(() => null);
  // The server names the start room's sphere in the page (api/src/http/viewer-page.ts): fetched now, beside the visit.
  const named = w.document.querySelector<HTMLMetaElement>(`meta[name="${VIEWER_START_META}"]`)?.content || null;
  const early = named ? fetchBlob(named) : null;
  const base = visit.then(async (answer) => {
    const v = visitOf(answer);
    const id = v ? startRoomId(v, address.room) : null;
    const url = v?.rooms.find((r) => r.id === id)?.panorama?.base_url;
    if (!url) return null;
    // The same file (its signature may have been renewed in between) or, when the answer opens another room, that one's.
    const blob = (early && sameFile(named!, url) ? await early : null) ?? (await fetchBlob(url));
    return blob ? { url, blob } : null;
  });
  const preload: ViewerPreload = { query, visit, base, room: address.room };
  w.__swViewerPreload = preload;

  // The screen's JavaScript and stylesheets, fetched now rather than one after another once the app runs:
  // first (and before the app's own files) the early viewer's (Photo Sphere Viewer, three.js), then the screen's.
  const files = (name: string) => (w.document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '').split(' ').filter(Boolean);
  const bootFiles = files(VIEWER_BOOT_META);
  for (const href of [...bootFiles, ...files(VIEWER_CHUNKS_META)]) {
    const link = w.document.createElement('link');
    // Vite's own loader finds these by href and does not fetch them again.
    link.rel = href.endsWith('.css') ? 'stylesheet' : 'modulepreload';
    link.setAttribute('href', href);
    link.setAttribute('fetchpriority', bootFiles.includes(href) ? 'high' : 'low');
    w.document.head.appendChild(link);
  }

  // The viewer itself, made as soon as Photo Sphere Viewer, the answer and the sphere are here, before the app runs.
  // Set now, so the screen waits for it rather than making a second viewer. The chunk, when it runs, hands its
  // start function to the hook (its export names are the bundler's own).
  const bootUrl = bootFiles[0];
  const load = loadBoot ?? (bootUrl ? () => import(/* @vite-ignore */ bootUrl) as Promise<unknown> : null);
  if (load) {
    const hooked = w as unknown as BootWindow;
    (w as { __swPanoBoot?: Promise<unknown> }).__swPanoBoot = new Promise((resolve) => {
      hooked.__swPanoBootHook = (bootPanorama) => resolve(bootPanorama(preload));
      // Loaded without calling the hook, or not loaded: no early viewer (a second resolve does nothing).
      load().then(
        () => resolve(null),
        () => resolve(null),
      );
    });
  }

}

/** The preloaded GET /viewer-visit answer for this query, once (a later call asks the server). */
export function takePreloadedVisit(query: string): Promise<{ status: number; body: unknown } | null> | null {
  const p = typeof window === 'undefined' ? undefined : window.__swViewerPreload;
  if (!p || p.visitTaken || p.query !== query) return null;
  p.visitTaken = true;
  return p.visit;
}

/** The preloaded low-resolution sphere when it is this one, waiting for it if it is still on its way. */
export async function preloadedBase(url: string): Promise<Blob | null> {
  const p = typeof window === 'undefined' ? undefined : window.__swViewerPreload;
  if (!p) return null;
  const got = await p.base;
  return got && got.url === url ? got.blob : null;
}

/**
 * Removes the early viewer (panorama-boot.ts) when no 360 view took it over:
 * the screen shows no room, or an error. Typed loosely: this file imports nothing.
 */
export function dropBootedViewer(): void {
  const boot = (window as { __swPanoBoot?: Promise<{ taken: boolean; session: { viewer: { destroy(): void }; host: HTMLElement } } | null> }).__swPanoBoot;
  void boot?.then((b) => {
    if (!b || b.taken) return;
    b.taken = true;
    b.session.viewer.destroy();
    b.session.host.remove();
  });
}

interface EarlyViewer {
  session: {
    host: HTMLElement;
    viewer: { addEventListener(type: 'panorama-loaded', cb: () => void, opts?: { once: boolean }): void };
  };
}

/**
 * On /viewer/… the first sphere is drawn before the app starts (the early
 * viewer, components/panorama/panorama-boot.ts, started below). The browser
 * runs the page's JavaScript on one thread, so the app's modules, React's
 * first render, the settings and the translations would otherwise come in
 * between and hold the sphere back: the app waits for the sphere's first
 * frame instead (the title bar follows a moment later), never longer than
 * `capMs`. On the served viewer page the app's script itself waits for it
 * (api/src/http/viewer-page.ts moves it here); main.tsx waits again, which is
 * at once then, and is what counts in the dev server.
 */
export function afterEarlySphere(capMs = 1500, w: Window = window): Promise<void> {
  const boot = (w as { __swPanoBoot?: Promise<EarlyViewer | null> }).__swPanoBoot;
  if (!boot) return Promise.resolve();
  const drawn = boot.then(
    (b) =>
      b &&
      new Promise<void>((resolve) => {
        // The frame that draws it, then the task after it.
        const afterFrame = () => w.requestAnimationFrame(() => w.setTimeout(resolve, 0));
        if (b.session.host.dataset.panoState === 'ready') afterFrame();
        else b.session.viewer.addEventListener('panorama-loaded', afterFrame, { once: true });
      }),
    () => undefined,
  );
  return Promise.race([drawn.then(() => undefined), new Promise<void>((resolve) => w.setTimeout(resolve, capMs))]);
}
