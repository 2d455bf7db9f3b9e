import type { IncomingMessage, ServerResponse } from 'node:http';
import { finished } from 'node:stream';

/**
 * A Node request as a web Request for a handler that speaks web requests
 * (the tus server), and its web Response written back to the Node response.
 *
 * Why not the tus server's own `handle(req, res)`: it turns the request body
 * into a web stream with Node's `Readable.toWeb`, which copies every chunk
 * (to free it from Buffer's shared pool) and pauses the socket after each
 * one. A request body's chunks are never pooled — each is a fresh buffer of
 * its own — so here they are handed on as they are, with a queue of
 * `highWaterMark` bytes before the socket is paused. On a 2 GB walk that
 * copy was a second allocation of every byte, and the garbage collector
 * the API's largest cost (bench/s3-upload-bench.ts).
 *
 * The Request carries `runtime.node` as the web server toolkit srvx does, so a
 * handler that looks for the Node request (the tus server, to abort a write
 * when the connection drops; our hooks, to know the sender) finds it.
 */

const BODY_QUEUE_BYTES = 1024 * 1024;

/** The request's body as a web stream of its own chunks (none copied); errors when the connection drops before the end. */
export function requestBodyStream(req: IncomingMessage, highWaterMark = BODY_QUEUE_BYTES): ReadableStream<Uint8Array> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  req.pause();
  req.on('data', (chunk: Buffer) => {
    if (cancelled) return;
    controller.enqueue(chunk);
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  });
  const stop = finished(req, (err) => {
    stop();
    if (cancelled) return;
    if (err) controller.error(err);
    else controller.close();
  });
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        req.resume();
      },
      cancel(reason) {
        cancelled = true;
        req.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark }),
  );
}

export type NodeBackedRequest = Request & { runtime: { node: { req: IncomingMessage; res: ServerResponse } } };

/** A web Request for `req` (the body streamed for methods that carry one). */
export function toWebRequest(req: IncomingMessage, res: ServerResponse): NodeBackedRequest {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const request = new Request(new URL(req.url ?? '/', 'http://localhost'), {
    method,
    headers,
    ...(hasBody ? { body: requestBodyStream(req), duplex: 'half' } : {}),
  } as RequestInit);
  return Object.assign(request, { runtime: { node: { req, res } } });
}

/** Writes a web Response to the Node response (its body read whole: the handlers here answer short texts). */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.setHeader(name, value);
  res.end(body ?? undefined);
}
