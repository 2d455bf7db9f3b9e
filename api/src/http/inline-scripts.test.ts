import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from './inline-scripts.js';

const sha = (s: string) => `'sha256-${crypto.createHash('sha256').update(s, 'utf8').digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it('hashes the exact text of each inline script, as the browser does', () => {
    const code = '(()=>{const a="é";window.x=a})();';
    const html = `<head><meta charset="UTF-8" />\n<script>${code}</script><script type="module" crossorigin src="/assets/index.js"></script></head>`;
    expect(inlineScriptHashes(html)).toEqual([sha(code)]);
  });

  it('skips scripts with a src and empty ones', () => {
    expect(inlineScriptHashes('<script src="/a.js"></script><script async fetchpriority="high" src="/b.js"></script><script>  </script>')).toEqual([]);
    expect(inlineScriptHashes('<p>no scripts</p>')).toEqual([]);
  });
});
