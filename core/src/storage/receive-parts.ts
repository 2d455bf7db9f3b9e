import type { Readable } from 'node:stream';

/**
 * One request's body of a resumable upload received straight into a
 * multipart upload of the bucket: the bytes are gathered into parts of
 * `partBytes` (the upload's last part may be shorter) and each whole part is
 * sent while the next one is gathered, `inFlight` at most at once. Memory is
 * (inFlight + 1) parts whatever the upload's size, and the bytes are copied
 * once, from the request into the part.
 *
 * A body that ends inside a part (a dropped connection, or a client sending
 * pieces that do not end on a part) leaves that part unsent: the offset
 * answered is where the bucket's whole parts end, and the client sends the
 * rest from there — the tus protocol lets a server keep fewer bytes than it
 * was sent (tus-js-client carries on from the offset the server answers).
 * Parts may finish out of order; `stored` hears the offset every time the
 * run of finished parts from the start grows, so a machine that dies
 * mid-request loses at most the parts in flight, which the client sends again.
 */
export interface ReceiveTarget {
  /** Where this request's bytes start: a multiple of `partBytes`. */
  offset: number;
  /** The whole upload's length. */
  size: number;
  partBytes: number;
  inFlight: number;
  /** Sends one part (numbered from 1). */
  send(partNumber: number, bytes: Buffer): Promise<void>;
  /** The bucket holds the upload's first `offset` bytes. */
  stored(offset: number): Promise<void>;
}

export async function receiveIntoParts(body: Readable, t: ReceiveTarget): Promise<number> {
  if (t.offset % t.partBytes !== 0 && t.offset !== t.size) throw new Error(`offset ${t.offset} is not where a part starts`);
  const partLength = (start: number) => Math.min(t.partBytes, t.size - start);
  const spare: Buffer[] = [];
  const running = new Set<Promise<void>>();
  const finished = new Set<number>();
  let whole = t.offset;
  let failure: unknown = null;
  let recording: Promise<void> = Promise.resolve();

  const dispatch = (start: number, part: Buffer, buffer: Buffer) => {
    const sending: Promise<void> = t
      .send(start / t.partBytes + 1, part)
      .then(
        () => {
          finished.add(start);
          const before = whole;
          while (finished.has(whole)) {
            finished.delete(whole);
            whole += partLength(whole);
          }
          if (whole > before) {
            const at = whole;
            recording = recording.then(() => t.stored(at));
          }
        },
        (err: unknown) => {
          failure ??= err;
        },
      )
      .finally(() => {
        running.delete(sending);
        // Only a buffer of a whole part is worth keeping: the next part is that size too.
        if (buffer.length === t.partBytes) spare.push(buffer);
      });
    running.add(sending);
  };

  let start = t.offset;
  let buffer: Buffer | null = null;
  let filled = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      let rest = chunk;
      while (rest.length > 0) {
        if (failure) throw failure;
        const want = partLength(start);
        if (want <= 0) throw new Error('the request holds more bytes than the upload');
        buffer ??= want === t.partBytes ? (spare.pop() ?? Buffer.allocUnsafeSlow(want)) : Buffer.allocUnsafeSlow(want);
        const n = Math.min(want - filled, rest.length);
        rest.copy(buffer, filled, 0, n);
        filled += n;
        rest = rest.subarray(n);
        if (filled === want) {
          while (running.size >= t.inFlight) await Promise.race(running);
          if (failure) throw failure;
          dispatch(start, buffer.subarray(0, want), buffer);
          start += want;
          buffer = null;
          filled = 0;
        }
      }
    }
  } finally {
    // Whatever ended the body, the parts already sent finish and count.
    await Promise.all(running);
    await recording;
  }
  if (failure) throw failure;
  return whole;
}
