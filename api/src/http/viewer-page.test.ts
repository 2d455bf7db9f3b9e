import { describe, expect, it } from 'vitest';
import { viewerAddress, withViewerStart } from './viewer-page.js';

const INDEX = `<!doctype html><html><head>
    <meta charset="UTF-8" />
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
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/index-AbC.js" />');
    expect(page.indexOf('<meta name="sw-app-entry" content="/assets/index-AbC.js" />')).toBeLessThan(page.indexOf('<script>preload()'));
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/index-AbC.css">');
  });

  it('leaves a page without the app script tag as it was, with the start sphere', () => {
    const plain = withViewerStart('<head><meta charset="utf-8"><script>p()</script></head>', '/x.jpg');
    expect(plain).toBe('<head><meta charset="utf-8">\n    <meta name="sw-viewer-start" content="/x.jpg" /><script>p()</script></head>');
  });
});
