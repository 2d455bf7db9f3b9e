import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Autodesk Platform Services, speaking the real paths,
 * status codes and JSON:API shapes SiteWalk uses, so tests run the real HTTP
 * protocol without the internet:
 *
 * - authentication v2: /authentication/v2/authorize (a consent page with
 *   Allow / Deny), /token (authorization_code with PKCE S256, refresh_token
 *   with rotation: a refresh token works once), /revoke;
 * - Data Management: hubs, projects, topFolders, folder contents (with the
 *   tip versions `included`), item versions; `page[number]` / `page[limit]`
 *   and `links.next`;
 * - OSS signed downloads, Model Derivative manifests (2D views, role '2d',
 *   with a PDF derivative each) and derivative downloads, ACC sheets;
 * - 429 with Retry-After on demand (`throttle`), expired tokens on demand.
 *
 * Tests in other processes steer it over HTTP under /__standin/.
 */

export interface StandInFile {
  name: string;
  /** 'pdf' files are downloaded as they are; 'rvt' models offer their 2D views (PDF derivatives). */
  kind: 'pdf' | 'rvt';
  /** One entry per version, oldest first: the PDF bytes (pdf), or the 2D views' PDFs by view name (rvt). */
  versions: (Buffer | Record<string, Buffer>)[];
}
export interface StandInFolder {
  name: string;
  folders?: StandInFolder[];
  files?: StandInFile[];
}
export interface StandInProject {
  name: string;
  folders: StandInFolder[];
  /** ACC sheets (number and title). */
  sheets?: { number: string; title: string }[];
}
export interface StandInHub {
  name: string;
  projects: StandInProject[];
}
export interface StandInOptions {
  clientId: string;
  clientSecret: string;
  hubs: StandInHub[];
  /** Items per page when the caller gives no page[limit] (small, so paging is exercised). */
  pageSize?: number;
  /** Lifetime of access tokens in seconds. */
  tokenLifetimeSec?: number;
}

interface Code {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  used: boolean;
}
interface Tokens {
  access: Map<string, { expires: number; grant: string }>;
  refresh: Map<string, { used: boolean; grant: string; scope: string }>;
}
interface VersionRec {
  id: string;
  itemId: string;
  projectId: string;
  number: number;
  file: StandInFile;
  content: Buffer | Record<string, Buffer>;
  objectName: string;
}
interface Node {
  id: string;
  type: 'folders' | 'items';
  name: string;
  children: Node[];
  versions: VersionRec[];
}

export interface StandInEvent {
  method: string;
  path: string;
  status: number;
  /** Why a token call was refused (invalid_grant, PKCE failure, …). */
  reason?: string;
}

export interface AdskStandIn {
  url: string;
  /** Every request answered, in order. */
  events: StandInEvent[];
  /** The next `count` Data Management / Model Derivative / OSS calls answer 429 with Retry-After. */
  throttle(count: number, retryAfterSec?: number): void;
  /** After `okFirst` more file downloads succeed, the next `count` answer 503 (a download cut off half-way through a sync). */
  failDownloads(count: number, okFirst?: number): void;
  /** Makes every access token issued so far expired (the next call gets 401). */
  expireAccessTokens(): void;
  /** Makes every refresh token issued so far unusable (as when a user revokes the app at Autodesk). */
  revokeAll(): void;
  /** Adds a version to a file, found by name. */
  addVersion(fileName: string, content: Buffer | Record<string, Buffer>): void;
  /** Tokens issued that are still alive (access and refresh), for "never in any answer" checks. */
  liveTokens(): string[];
  /** Every token ever issued. */
  allTokens(): string[];
  close(): Promise<void>;
}

const rand = (n = 24) => crypto.randomBytes(n).toString('base64url');
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const s256 = (verifier: string) => crypto.createHash('sha256').update(verifier).digest('base64url');

/** Starts the stand-in on a free loopback port. */
export async function startAdskStandIn(opts: StandInOptions): Promise<AdskStandIn> {
  const pageSize = opts.pageSize ?? 2;
  const lifetime = opts.tokenLifetimeSec ?? 3599;
  const codes = new Map<string, Code>();
  const tokens: Tokens = { access: new Map(), refresh: new Map() };
  const issued: string[] = [];
  const events: StandInEvent[] = [];
  const consent = new Map<string, URLSearchParams>();
  const downloads = new Map<string, Buffer>();
  let throttleLeft = 0;
  let throttleRetry = 1;
  let downloadsOkFirst = 0;
  let downloadsToFail = 0;

  // Build ids for the tree once, so they stay the same for the life of the stand-in.
  const hubs = opts.hubs.map((h, hi) => {
    const hubId = `b.hub${hi}-${rand(4)}`;
    const projects = h.projects.map((p, pi) => {
      const guid = crypto.randomUUID();
      const projectId = `b.${guid}`;
      const versionsByName = new Map<string, { node: Node; file: StandInFile }>();
      const build = (f: StandInFolder): Node => ({
        id: `urn:adsk.wipprod:fs.folder:co.${rand(8)}`,
        type: 'folders',
        name: f.name,
        versions: [],
        children: [
          ...(f.folders ?? []).map(build),
          ...(f.files ?? []).map((file) => {
            const itemId = `urn:adsk.wipprod:dm.lineage:${rand(8)}`;
            const node: Node = { id: itemId, type: 'items', name: file.name, children: [], versions: [] };
            file.versions.forEach((content) => pushVersion(node, projectId, file, content));
            versionsByName.set(file.name, { node, file });
            return node;
          }),
        ],
      });
      return { id: projectId, guid, name: p.name, sheets: p.sheets ?? [], top: p.folders.map(build), files: versionsByName, index: pi };
    });
    return { id: hubId, name: h.name, projects };
  });

  function pushVersion(node: Node, projectId: string, file: StandInFile, content: Buffer | Record<string, Buffer>) {
    const lineage = node.id.split(':').pop()!;
    const number = node.versions.length + 1;
    node.versions.push({
      id: `urn:adsk.wipprod:fs.file:vf.${lineage}?version=${number}`,
      itemId: node.id,
      projectId,
      number,
      file,
      content,
      objectName: `${rand(6)}.${file.kind}`,
    });
  }

  const allNodes = () => {
    const out: Node[] = [];
    const walk = (n: Node) => {
      out.push(n);
      n.children.forEach(walk);
    };
    hubs.forEach((h) => h.projects.forEach((p) => p.top.forEach(walk)));
    return out;
  };
  const allVersions = () => allNodes().flatMap((n) => n.versions);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((err) => {
        send(req, res, 500, { developerMessage: String(err) });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function send(req: http.IncomingMessage, res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, reason?: string) {
    events.push({ method: req.method ?? 'GET', path: (req.url ?? '').split('?')[0], status, ...(reason ? { reason } : {}) });
    if (Buffer.isBuffer(body)) {
      res.writeHead(status, { 'content-type': 'application/octet-stream', 'content-length': body.length, ...headers });
      res.end(body);
    } else if (typeof body === 'string') {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    } else {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body === undefined ? '' : JSON.stringify(body));
    }
  }
  const oauthError = (req: http.IncomingMessage, res: http.ServerResponse, status: number, error: string, description: string) =>
    send(req, res, status, { error, error_description: description }, {}, `${error}: ${description}`);

  /** Client authentication: HTTP Basic (what APS documents) or client_id/client_secret in the form. */
  function clientOf(req: http.IncomingMessage, form: URLSearchParams): string | null {
    const m = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const [id, secret] = m ? Buffer.from(m[1], 'base64').toString('utf8').split(':') : [form.get('client_id'), form.get('client_secret')];
    return id === opts.clientId && secret === opts.clientSecret ? id : null;
  }

  function issue(grant: string, scope: string) {
    const access = `sa-${rand(30)}`;
    const refresh = `sr-${rand(30)}`;
    tokens.access.set(access, { expires: Date.now() + lifetime * 1000, grant });
    tokens.refresh.set(refresh, { used: false, grant, scope });
    issued.push(access, refresh);
    return { access_token: access, refresh_token: refresh, token_type: 'Bearer', expires_in: lifetime, scope };
  }

  /** A JSON:API page of `items`, with links.next while more follow. */
  function page<T>(url: URL, items: T[], extra: Record<string, unknown> = {}) {
    const number = Math.max(0, Number(url.searchParams.get('page[number]') ?? 0) || 0);
    const limit = Math.min(200, Math.max(1, Number(url.searchParams.get('page[limit]') ?? pageSize) || pageSize));
    const slice = items.slice(number * limit, number * limit + limit);
    const self = new URL(url.toString(), base);
    const links: Record<string, { href: string }> = { self: { href: self.toString() } };
    if ((number + 1) * limit < items.length) {
      const next = new URL(self);
      next.searchParams.set('page[number]', String(number + 1));
      next.searchParams.set('page[limit]', String(limit));
      links.next = { href: next.toString() };
    }
    return { jsonapi: { version: '1.0' }, links, data: slice, ...extra };
  }

  const versionJson = (v: VersionRec) => ({
    type: 'versions',
    id: v.id,
    attributes: {
      name: v.file.name,
      displayName: v.file.name,
      versionNumber: v.number,
      fileType: v.file.kind,
      createTime: new Date(Date.UTC(2026, 0, v.number)).toISOString(),
      lastModifiedTime: new Date(Date.UTC(2026, 0, v.number)).toISOString(),
      extension: { type: 'versions:autodesk.bim360:File', version: '1.0' },
    },
    relationships: {
      item: { data: { type: 'items', id: v.itemId } },
      storage: {
        data: { type: 'objects', id: `urn:adsk.objects:os.object:wip.dm.prod/${v.objectName}` },
        meta: { link: { href: `${base}/oss/v2/buckets/wip.dm.prod/objects/${v.objectName}?scopes=b360project` } },
      },
      derivatives: { data: { type: 'derivatives', id: b64url(v.id) } },
    },
  });
  const nodeJson = (n: Node) =>
    n.type === 'folders'
      ? { type: 'folders', id: n.id, attributes: { name: n.name, displayName: n.name, objectCount: n.children.length, extension: { type: 'folders:autodesk.bim360:Folder', version: '1.0' } } }
      : {
          type: 'items',
          id: n.id,
          attributes: { displayName: n.name, createTime: '2026-01-01T00:00:00.000Z', lastModifiedTime: '2026-01-01T00:00:00.000Z', extension: { type: 'items:autodesk.bim360:File', version: '1.0' } },
          relationships: { tip: { data: { type: 'versions', id: n.versions.at(-1)!.id } } },
        };

  function manifestOf(v: VersionRec, urn: string) {
    const views = v.file.kind === 'rvt' ? Object.keys(v.content as Record<string, Buffer>) : [];
    return {
      type: 'manifest',
      urn,
      hasThumbnail: 'true',
      progress: 'complete',
      status: 'success',
      region: 'US',
      derivatives: [
        {
          name: v.file.name,
          hasThumbnail: 'true',
          status: 'success',
          progress: 'complete',
          outputType: 'svf',
          children: [
            ...views.map((name, i) => ({
              guid: `view-${i}-${v.number}`,
              type: 'geometry',
              role: '2d',
              name,
              status: 'success',
              children: [
                { guid: `pdf-${i}-${v.number}`, type: 'resource', role: 'pdf-page', mime: 'application/pdf', urn: `urn:adsk.viewing:fs.file:${urn}/output/Resource/Sheet/view-${i}.pdf` },
              ],
            })),
            { guid: `3d-${v.number}`, type: 'geometry', role: '3d', name: '{3D}', status: 'success', children: [] },
          ],
        },
      ],
    };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, rawBody: string) {
    const url = new URL(req.url ?? '/', base);
    const p = url.pathname;
    const form = new URLSearchParams(req.headers['content-type']?.includes('json') ? '' : rawBody);

    // --- steering, for tests in other processes
    if (p.startsWith('/__standin/')) {
      const body = req.headers['content-type']?.includes('json') && rawBody ? JSON.parse(rawBody) : {};
      if (p === '/__standin/throttle') api.throttle(Number(body.count ?? 1), Number(body.retryAfter ?? 1));
      else if (p === '/__standin/expire') api.expireAccessTokens();
      else if (p === '/__standin/tokens') return send(req, res, 200, { live: api.liveTokens(), all: api.allTokens() });
      else if (p === '/__standin/events') return send(req, res, 200, events);
      else if (p.startsWith('/__standin/s3/')) {
        if (downloadsToFail > 0 && downloadsOkFirst-- <= 0) {
          downloadsToFail--;
          return send(req, res, 503, { error: 'SlowDown' });
        }
        const bytes = downloads.get(p.slice('/__standin/s3/'.length));
        return bytes ? send(req, res, 200, bytes, { 'content-type': 'application/pdf' }) : send(req, res, 403, { error: 'expired' });
      } else return send(req, res, 404, { error: 'unknown' });
      return send(req, res, 204, undefined);
    }

    // --- authentication v2
    if (p === '/authentication/v2/authorize' && req.method === 'GET') {
      const q = url.searchParams;
      if (q.get('client_id') !== opts.clientId) return send(req, res, 400, '<p>Unknown client_id.</p>', {}, 'unknown client');
      if (q.get('response_type') !== 'code') return send(req, res, 400, '<p>response_type must be code.</p>', {}, 'bad response_type');
      if (!q.get('redirect_uri')) return send(req, res, 400, '<p>redirect_uri is required.</p>', {}, 'no redirect_uri');
      if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return send(req, res, 400, '<p>PKCE (S256) is required.</p>', {}, 'no PKCE');
      const ticket = rand(12);
      consent.set(ticket, q);
      return send(
        req,
        res,
        200,
        `<!doctype html><html><head><title>Autodesk sign in (stand-in)</title></head><body>
<h1>Allow SiteWalk to access your Autodesk data?</h1><p>Scopes: ${(q.get('scope') ?? '').replace(/[<>&"]/g, '')}</p>
<form method="post" action="/authentication/v2/authorize/decision"><input type="hidden" name="ticket" value="${ticket}">
<button name="decision" value="allow" id="allow">Allow</button> <button name="decision" value="deny" id="deny">Deny</button></form></body></html>`,
      );
    }
    if (p === '/authentication/v2/authorize/decision' && req.method === 'POST') {
      const q = consent.get(form.get('ticket') ?? '');
      if (!q) return send(req, res, 400, '<p>This sign-in expired.</p>');
      consent.delete(form.get('ticket')!);
      const back = new URL(q.get('redirect_uri')!);
      if (form.get('decision') !== 'allow') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The user denied access.');
      } else {
        const code = rand(20);
        codes.set(code, { clientId: q.get('client_id')!, redirectUri: q.get('redirect_uri')!, challenge: q.get('code_challenge')!, scope: q.get('scope') ?? '', used: false });
        back.searchParams.set('code', code);
      }
      if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
      return send(req, res, 302, '', { location: back.toString() });
    }
    if (p === '/authentication/v2/token' && req.method === 'POST') {
      if (!clientOf(req, form)) return oauthError(req, res, 401, 'invalid_client', 'The client credentials are not valid.');
      const grant = form.get('grant_type');
      if (grant === 'authorization_code') {
        const code = codes.get(form.get('code') ?? '');
        if (!code) return oauthError(req, res, 400, 'invalid_grant', 'The authorization code is not valid.');
        if (code.used) return oauthError(req, res, 400, 'invalid_grant', 'The authorization code was already used.');
        code.used = true;
        if (code.redirectUri !== form.get('redirect_uri')) return oauthError(req, res, 400, 'invalid_grant', 'redirect_uri does not match.');
        const verifier = form.get('code_verifier') ?? '';
        if (!verifier || s256(verifier) !== code.challenge) return oauthError(req, res, 400, 'invalid_grant', 'PKCE verification failed: code_verifier does not match code_challenge.');
        return send(req, res, 200, issue(rand(6), code.scope));
      }
      if (grant === 'refresh_token') {
        const rt = tokens.refresh.get(form.get('refresh_token') ?? '');
        if (!rt || rt.used) return oauthError(req, res, 400, 'invalid_grant', 'The refresh token is not valid or was already used.');
        rt.used = true; // single-use: rotation
        return send(req, res, 200, issue(rt.grant, rt.scope));
      }
      return oauthError(req, res, 400, 'unsupported_grant_type', 'grant_type is not supported.');
    }
    if (p === '/authentication/v2/revoke' && req.method === 'POST') {
      if (!clientOf(req, form)) return oauthError(req, res, 401, 'invalid_client', 'The client credentials are not valid.');
      const t = form.get('token') ?? '';
      tokens.access.delete(t);
      const rt = tokens.refresh.get(t);
      if (rt) rt.used = true;
      return send(req, res, 200, undefined);
    }

    if (p === '/favicon.ico') return send(req, res, 404, undefined);

    // --- everything else needs a live access token
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const at = bearer ? tokens.access.get(bearer) : undefined;
    if (!at || at.expires < Date.now()) return send(req, res, 401, { developerMessage: 'The token is not valid or has expired.', errorCode: 'AUTH-006' });
    if (throttleLeft > 0) {
      throttleLeft--;
      return send(req, res, 429, { developerMessage: 'Too many requests.' }, { 'retry-after': String(throttleRetry) });
    }

    let m: RegExpExecArray | null;
    if (p === '/project/v1/hubs') {
      return send(req, res, 200, page(url, hubs.map((h) => ({ type: 'hubs', id: h.id, attributes: { name: h.name, region: 'US', extension: { type: 'hubs:autodesk.bim360:Account', version: '1.0' } } }))));
    }
    if ((m = /^\/project\/v1\/hubs\/([^/]+)\/projects(?:\/([^/]+)(\/topFolders)?)?$/.exec(p))) {
      const hub = hubs.find((h) => h.id === decodeURIComponent(m![1]));
      if (!hub) return send(req, res, 404, { errors: [{ detail: 'Hub not found' }] });
      const projectJson = (pr: (typeof hub.projects)[number]) => ({
        type: 'projects',
        id: pr.id,
        attributes: { name: pr.name, extension: { type: 'projects:autodesk.bim360:Project', version: '1.0' } },
        relationships: { hub: { data: { type: 'hubs', id: hub.id } } },
      });
      if (!m[2]) return send(req, res, 200, page(url, hub.projects.map(projectJson)));
      const pr = hub.projects.find((x) => x.id === decodeURIComponent(m![2]));
      if (!pr) return send(req, res, 404, { errors: [{ detail: 'Project not found' }] });
      if (!m[3]) return send(req, res, 200, { jsonapi: { version: '1.0' }, data: projectJson(pr) });
      return send(req, res, 200, { jsonapi: { version: '1.0' }, data: pr.top.map(nodeJson) });
    }
    if ((m = /^\/data\/v1\/projects\/([^/]+)\/folders\/([^/]+)\/contents$/.exec(p))) {
      const folder = allNodes().find((n) => n.type === 'folders' && n.id === decodeURIComponent(m![2]));
      if (!folder) return send(req, res, 404, { errors: [{ detail: 'Folder not found' }] });
      const pg = page(url, folder.children.map(nodeJson));
      const included = folder.children.filter((c) => pg.data.some((d) => d.id === c.id) && c.type === 'items').map((c) => versionJson(c.versions.at(-1)!));
      return send(req, res, 200, { ...pg, included });
    }
    if ((m = /^\/data\/v1\/projects\/([^/]+)\/items\/([^/]+)\/(versions|tip)$/.exec(p))) {
      const item = allNodes().find((n) => n.type === 'items' && n.id === decodeURIComponent(m![2]));
      if (!item) return send(req, res, 404, { errors: [{ detail: 'Item not found' }] });
      if (m[3] === 'tip') return send(req, res, 200, { jsonapi: { version: '1.0' }, data: versionJson(item.versions.at(-1)!) });
      return send(req, res, 200, page(url, [...item.versions].reverse().map(versionJson)));
    }
    if ((m = /^\/oss\/v2\/buckets\/([^/]+)\/objects\/([^/]+)\/signeds3download$/.exec(p))) {
      const v = allVersions().find((x) => x.objectName === decodeURIComponent(m![2]));
      if (!v || v.file.kind !== 'pdf') return send(req, res, 404, { reason: 'Object not found' });
      const key = rand(16);
      downloads.set(key, v.content as Buffer);
      return send(req, res, 200, { status: 'complete', url: `${base}/__standin/s3/${key}`, params: {}, size: (v.content as Buffer).length, sha1: '' });
    }
    if ((m = /^\/modelderivative\/v2\/designdata\/([^/]+)\/manifest(?:\/(.+))?$/.exec(p))) {
      const urn = decodeURIComponent(m[1]);
      const v = allVersions().find((x) => b64url(x.id) === urn);
      if (!v) return send(req, res, 404, { diagnostic: 'Requested file does not exist.' });
      if (!m[2]) return send(req, res, 200, manifestOf(v, urn));
      const derivative = decodeURIComponent(m[2]);
      const idx = /\/view-(\d+)\.pdf$/.exec(derivative);
      const views = v.file.kind === 'rvt' ? Object.values(v.content as Record<string, Buffer>) : [];
      if (!idx || !views[Number(idx[1])]) return send(req, res, 404, { diagnostic: 'Derivative not found.' });
      return send(req, res, 200, views[Number(idx[1])], { 'content-type': 'application/pdf' });
    }
    if ((m = /^\/construction\/sheets\/v1\/projects\/([^/]+)\/sheets$/.exec(p))) {
      const pr = hubs.flatMap((h) => h.projects).find((x) => x.guid === decodeURIComponent(m![1]));
      if (!pr) return send(req, res, 404, { detail: 'Project not found' });
      const offset = Math.max(0, Number(url.searchParams.get('offset') ?? 0) || 0);
      const limit = Math.max(1, Number(url.searchParams.get('limit') ?? pageSize) || pageSize);
      const all = pr.sheets.map((s, i) => ({ id: `sheet-${pr.guid}-${i}`, number: s.number, title: s.title, versionSet: { id: 'vs-1', name: 'Issued' } }));
      const next = offset + limit < all.length ? `${base}${p}?offset=${offset + limit}&limit=${limit}` : null;
      return send(req, res, 200, { results: all.slice(offset, offset + limit), pagination: { limit, offset, totalResults: all.length, nextUrl: next } });
    }
    return send(req, res, 404, { developerMessage: `No route ${req.method} ${p}` });
  }

  const api: AdskStandIn = {
    url: base,
    events,
    throttle(count, retryAfterSec = 1) {
      throttleLeft = count;
      throttleRetry = retryAfterSec;
    },
    failDownloads(count, okFirst = 0) {
      downloadsToFail = count;
      downloadsOkFirst = okFirst;
    },
    expireAccessTokens() {
      for (const t of tokens.access.values()) t.expires = 0;
    },
    revokeAll() {
      for (const t of tokens.refresh.values()) t.used = true;
      tokens.access.clear();
    },
    addVersion(fileName, content) {
      for (const h of hubs) for (const p of h.projects) {
        const found = p.files.get(fileName);
        if (found) pushVersion(found.node, p.id, found.file, content);
      }
    },
    liveTokens: () => [
      ...[...tokens.access.entries()].filter(([, v]) => v.expires > Date.now()).map(([k]) => k),
      ...[...tokens.refresh.entries()].filter(([, v]) => !v.used).map(([k]) => k),
    ],
    allTokens: () => [...issued],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return api;
}
