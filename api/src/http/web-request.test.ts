import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { requestBodyStream, sendWebResponse, toWebRequest } from './web-request.js';

/** A real server on a spare port whose requests go to `handle`; closed after each test. */
let server: http.Server | undefined;
async function serve(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>): Promise<number> {
  server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

const body = Buffer.alloc(3 * 1024 * 1024 + 17, 7);

describe('a Node request as a web request', () => {
  it('streams the body in the chunks the connection delivered (not copies of them), then ends', async () => {
    const seen: { chunks: Uint8Array[]; delivered: Buffer[] } = { chunks: [], delivered: [] };
    const port = await serve(async (req, res) => {
      req.on('data', (c: Buffer) => seen.delivered.push(c));
      for await (const chunk of requestBodyStream(req, 64 * 1024)) seen.chunks.push(chunk);
      res.end('ok');
    });
    const answer = await fetch(`http://127.0.0.1:${port}/`, { method: 'PATCH', body });
    expect(await answer.text()).toBe('ok');
    expect(Buffer.concat(seen.chunks).equals(body)).toBe(true);
    expect(seen.chunks.length).toBe(seen.delivered.length);
    seen.chunks.forEach((c, i) => expect(c.buffer).toBe(seen.delivered[i].buffer));
  });

  it('fails the body stream when the connection drops before the last byte', async () => {
    let failure: unknown = null;
    const reading = new Promise<void>((done) => {
      void serve(async (req) => {
        try {
          for await (const _ of requestBodyStream(req)) void _;
        } catch (err) {
          failure = err;
        }
        done();
      }).then((port) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'PATCH', headers: { 'Content-Length': String(body.length) } });
        req.on('error', () => undefined);
        req.write(body.subarray(0, 1024 * 1024), () => setTimeout(() => req.destroy(), 50));
      });
    });
    await reading;
    expect(failure).toBeInstanceOf(Error);
  });

  it('carries method, path, headers and the Node request; its web answer is written back whole', async () => {
    const port = await serve(async (req, res) => {
      const request = toWebRequest(req, res);
      expect(request.runtime.node.req).toBe(req);
      const text = await request.text();
      await sendWebResponse(res, new Response(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('upload-offset')} ${text.length}`, { status: 201, headers: { 'Upload-Offset': '5' } }));
    });
    const answer = await fetch(`http://127.0.0.1:${port}/api/uploads/videos/abc`, { method: 'PATCH', headers: { 'Upload-Offset': '0' }, body: 'hello' });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('upload-offset')).toBe('5');
    expect(await answer.text()).toBe('PATCH /api/uploads/videos/abc 0 5');
  });
});
