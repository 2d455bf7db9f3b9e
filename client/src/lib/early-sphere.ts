/**
 * On /viewer/… the first sphere is drawn before the app starts: index.html's
 * preload script has Photo Sphere Viewer make it (components/panorama/
 * panorama-boot.ts) as soon as its chunks, the visit and the low-resolution
 * image are in. The browser runs the page's JavaScript on one thread, so
 * React's first render, the settings and the translations would otherwise
 * come in between and hold the sphere back; the app waits for the sphere's
 * first frame instead (the title bar follows a moment later), never longer
 * than `capMs`. Imports nothing: it is part of the app's entry, which the
 * early viewer must not need.
 */

interface EarlyViewer {
  session: {
    host: HTMLElement;
    viewer: { addEventListener(type: 'panorama-loaded', cb: () => void, opts?: { once: boolean }): void };
  };
}

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
