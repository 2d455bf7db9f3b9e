import os from 'node:os';
import sharp from 'sharp';

/**
 * libvips' thread count is one setting of the whole process (sharp.concurrency),
 * read when a pipeline starts. A workers process serving both 360 photos and
 * PDF sheets wants different counts for each, so every job sets its own right
 * before it starts a pipeline, instead of the module loaded last deciding for
 * both. Two such jobs running at once share the count set last: only their
 * speed differs, never their output.
 */
export const IMAGE_THREADS = {
  /**
   * A 360 photo: one pipeline is the job's whole work. Every core, and two
   * threads more: the photo's decoding is sequential and tiles are written to
   * disk, so with one thread per core a core sits idle while a thread waits.
   * On two cores, 21 rounds of an 8192 × 4096 photo: 2 threads 0.98× `vips
   * dzsave`, 3: 0.92×, 4: 0.92×, 6: 0.90×.
   */
  panorama: os.availableParallelism() + 2,
  /**
   * A PDF page: the job cuts pages side by side, one per core, each pipeline on
   * one thread (sharp's own default on glibc Linux, which also limits heap
   * fragmentation). Measured on 2 cores, one A1 page with two libvips threads
   * took the same time as with one (1.11 s) for 35 % more CPU: the pyramid
   * writer hardly scales past one thread.
   */
  pdfPage: 1,
} as const;

export function useImageThreads(kind: keyof typeof IMAGE_THREADS): void {
  if (sharp.concurrency() !== IMAGE_THREADS[kind]) sharp.concurrency(IMAGE_THREADS[kind]);
}
