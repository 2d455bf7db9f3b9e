import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { receiveIntoParts, type ReceiveTarget } from './receive-parts.js';

/** A bucket that keeps its parts, answering each after `delays[partNumber]` ms (parts may finish out of order). */
function fakeBucket(opts: { delays?: Record<number, number>; failing?: number } = {}) {
  const parts = new Map<number, Buffer>();
  const stored: number[] = [];
  let most = 0;
  let now = 0;
  const target = (offset: number, size: number): ReceiveTarget => ({
    offset,
    size,
    partBytes: 10,
    inFlight: 3,
    async send(n, bytes) {
      now++;
      most = Math.max(most, now);
      await new Promise((r) => setTimeout(r, opts.delays?.[n] ?? 1));
      now--;
      if (n === opts.failing) throw new Error('the bucket refused the part');
      parts.set(n, Buffer.from(bytes));
    },
    async stored(o) {
      stored.push(o);
    },
  });
  const joined = () => Buffer.concat([...parts.keys()].sort((a, b) => a - b).map((n) => parts.get(n)!));
  return { parts, stored, target, joined, mostInFlight: () => most };
}

const bytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => i % 251));
/** The body as a client's request arrives: chunks of odd sizes. */
const body = (b: Buffer, chunk = 7) => Readable.from(Array.from({ length: Math.ceil(b.length / chunk) }, (_, i) => b.subarray(i * chunk, (i + 1) * chunk)));

describe('receiving an upload straight into the parts of a bucket upload', () => {
  it('stores the whole file in parts of the part size, the last one shorter, and answers its length', async () => {
    const file = bytes(47);
    const bucket = fakeBucket({ delays: { 1: 15, 2: 1 } });
    expect(await receiveIntoParts(body(file), bucket.target(0, 47))).toBe(47);
    expect([...bucket.parts.keys()].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(bucket.parts.get(5)!.length).toBe(7);
    expect(bucket.joined().equals(file)).toBe(true);
    // Part 1 finished last: the offset recorded only ever moves forward over parts the bucket holds from the start.
    expect(bucket.stored.at(-1)).toBe(47);
    expect(bucket.stored).toEqual([...bucket.stored].sort((a, b) => a - b));
    expect(bucket.mostInFlight()).toBeLessThanOrEqual(3);
  });

  it('a body that stops inside a part keeps only the whole parts, and the rest sent from there completes the file', async () => {
    const file = bytes(47);
    const bucket = fakeBucket();
    // The connection dropped after 26 bytes: parts 1 and 2 are whole, the 6 bytes of part 3 are not kept.
    expect(await receiveIntoParts(body(file.subarray(0, 26)), bucket.target(0, 47))).toBe(20);
    expect([...bucket.parts.keys()].sort()).toEqual([1, 2]);
    expect(await receiveIntoParts(body(file.subarray(20), 5), bucket.target(20, 47))).toBe(47);
    expect(bucket.joined().equals(file)).toBe(true);
  });

  it('a part the bucket refuses fails the request after the parts before it are counted', async () => {
    const bucket = fakeBucket({ failing: 3 });
    await expect(receiveIntoParts(body(bytes(47)), bucket.target(0, 47))).rejects.toThrow('the bucket refused the part');
    expect(bucket.stored.at(-1)).toBe(20);
  });

  it('refuses an offset inside a part and a body longer than the upload', async () => {
    const bucket = fakeBucket();
    await expect(receiveIntoParts(body(bytes(5)), bucket.target(15, 47))).rejects.toThrow('not where a part starts');
    await expect(receiveIntoParts(body(bytes(50)), bucket.target(0, 47))).rejects.toThrow('more bytes than the upload');
  });
});
