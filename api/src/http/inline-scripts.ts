import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The Content-Security-Policy sources ('sha256-…') that let the built
 * client's own inline scripts run, and nothing else inline. index.html has
 * one: the public viewer's preload (client/viewer-preload-plugin.ts), which
 * must run while the page is still being read, before any file could arrive.
 * The policy is worked out once at start-up; a client rebuilt with a changed
 * preload while the server runs only loses that head start (the app asks
 * for everything itself) until the next start.
 */

/** The hashes of the inline (src-less) scripts of an HTML page, as CSP source expressions. */
export function inlineScriptHashes(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(m[1]!) || !m[2]!.trim()) continue;
    out.push(`'sha256-${crypto.createHash('sha256').update(m[2]!, 'utf8').digest('base64')}'`);
  }
  return out;
}

/** The hashes for the client's index.html in `dist`; none when it is not built (yet). */
export function clientInlineScriptHashes(dist: string): string[] {
  try {
    return inlineScriptHashes(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'));
  } catch {
    return [];
  }
}
