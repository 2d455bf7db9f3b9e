/**
 * Just enough MIME to read a mail SiteWalk sends the way a mail reader shows
 * it: the subject (encoded words decoded) and the plain-text and HTML bodies
 * of nested multiparts, quoted-printable or base64, in UTF-8.
 */

export interface ReadMail {
  subject: string;
  text: string;
  html: string;
}

function splitHead(raw: string): { head: string; body: string } {
  const m = /\r?\n\r?\n/.exec(raw);
  if (!m) return { head: raw, body: '' };
  return { head: raw.slice(0, m.index), body: raw.slice(m.index + m[0].length) };
}

function parseHeaders(head: string): Record<string, string> {
  const out: Record<string, string> = {};
  // Folded header lines continue with leading whitespace.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

// Byte by byte: a quoted-printable body may also carry raw UTF-8 characters.
function decodeQuotedPrintable(s: string): Buffer {
  const bytes: number[] = [];
  const src = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(src.slice(i + 1, i + 3))) {
      bytes.push(parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?...?=`) in a header value. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function param(headerValue: string | undefined, name: string): string | undefined {
  const m = new RegExp(`${name}\\s*=\\s*("([^"]*)"|[^;\\s]+)`, 'i').exec(headerValue ?? '');
  return m ? (m[2] ?? m[1]) : undefined;
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '').toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body).toString('utf8');
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

function collectParts(raw: string, into: { text: string[]; html: string[] }): Record<string, string> {
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const type = (headers['content-type'] ?? 'text/plain').toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = param(headers['content-type'], 'boundary');
    if (boundary) {
      for (const section of body.split(`--${boundary}`).slice(1)) {
        if (section.startsWith('--')) break; // closing delimiter
        collectParts(section.replace(/^\r?\n/, ''), into);
      }
    }
  } else if (type.startsWith('text/html')) {
    into.html.push(decodeBody(body, headers['content-transfer-encoding']));
  } else if (type.startsWith('text/')) {
    into.text.push(decodeBody(body, headers['content-transfer-encoding']));
  }
  return headers;
}

/** A raw message (headers and MIME body, as an SMTP server receives it), decoded. */
export function readMail(raw: string): ReadMail {
  const parts = { text: [] as string[], html: [] as string[] };
  const headers = collectParts(raw, parts);
  return {
    subject: decodeHeader(headers.subject ?? ''),
    text: parts.text.join('\n').trim(),
    html: parts.html.join('\n').trim(),
  };
}

/**
 * The first link to `path` with a token in a mail's text (activation, password
 * reset): the whole URL and the token decoded, or null when there is none.
 */
export function tokenLink(text: string, path: string): { url: string; token: string } | null {
  const m = new RegExp(`(\\S+${path}\\?token=)([A-Za-z0-9_%-]+)`).exec(text);
  return m ? { url: m[1] + m[2], token: decodeURIComponent(m[2]) } : null;
}
