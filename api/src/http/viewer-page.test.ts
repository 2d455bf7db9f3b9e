import { describe, expect, it } from 'vitest';
import { viewerAddress, withViewerStart } from './viewer-page.js';

const INDEX = `<!doctype html><html><head>
    <meta charset="UTF-8" />
    <meta name="sw-viewer-boot" content="/assets/panorama-boot-X.js /assets/panorama-core-Y.js /assets/panorama-core-Y.css /assets/three.module-Z.js" />
    <script>preload()</script>
    <script type="module" crossorigin src="/assets/index-AbC.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-AbC.css">
  </head><body><div id="root"></div></body></html>`;

describe('viewerAddress', () => {
  it('reads the code, the room and the point of interest as the client does', () => {
    expect(viewerAddress('/viewer/abc123')).toEqual({ code: 'abc123', room: null, poi: null });
    expect(viewerAddress('/viewer/abc123/12/7')).toEqual({ code: 'abc123', room: 12, poi: 7 });
    expect(viewerAddress('/viewer/a%20b/x/0/')).toEqual({ code: 'a b', room: null, poi: null });
  });
  it('is null for other screens and unreadable codes', () => {
    expect(viewerAddress('/projects')).toBeNull();
    expect(viewerAddress('/viewer/')).toBeNull();
    expect(viewerAddress('/viewer/%E0%A4%A')).toBeNull();
  });
});

describe('withViewerStart', () => {
  const page = withViewerStart(INDEX, '/api/files/r/1/base.jpg?exp=1&sig=a"b');

  it("names the start sphere, escaped, before the preload script that reads it", () => {
    expect(page).toMatch(/<meta charset="UTF-8" \/>\s*<meta name="sw-viewer-start" content="\/api\/files\/r\/1\/base\.jpg\?exp=1&amp;sig=a&quot;b" \/>[\s\S]*<script>preload\(\)<\/script>/);
  });

  it("hands the app's script to the preload script: fetched at once, not run by the page", () => {
    expect(page).not.toContain('<script type="module"');
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/index-AbC.js" fetchpriority="low" />');
    expect(page.indexOf('<meta name="sw-app-entry" content="/assets/index-AbC.js" />')).toBeLessThan(page.indexOf('<script>preload()'));
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/index-AbC.css">');
  });

  it("asks for the early viewer's scripts in the HTML, first and at high priority, before the app's", () => {
    const boot = ['/assets/panorama-boot-X.js', '/assets/panorama-core-Y.js', '/assets/three.module-Z.js'];
    const at = boot.map((f) => page.indexOf(`<link rel="modulepreload" crossorigin href="${f}" fetchpriority="high" />`));
    for (const i of at) expect(i).toBeGreaterThan(0);
    expect(Math.max(...at)).toBeLessThan(page.indexOf('href="/assets/index-AbC.js"'));
    expect(Math.max(...at)).toBeLessThan(page.indexOf('<script>preload()'));
    // Stylesheets stay the preload script's (a stylesheet link in the HTML would hold up the page's first paint).
    expect(page).not.toContain('href="/assets/panorama-core-Y.css"');
  });

  it('leaves a page without the app script tag as it was, with the start sphere', () => {
    const plain = withViewerStart('<head><meta charset="utf-8"><script>p()</script></head>', '/x.jpg');
    expect(plain).toBe('<head><meta charset="utf-8">\n    <meta name="sw-viewer-start" content="/x.jpg" /><script>p()</script></head>');
  });
});
