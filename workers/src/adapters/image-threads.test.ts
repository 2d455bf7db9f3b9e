import os from 'node:os';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_THREADS, useImageThreads } from './image-threads.js';

describe('libvips threads per kind of job', () => {
  it('loading the image modules leaves the count alone: each job sets its own before it cuts', async () => {
    sharp.concurrency(7);
    // The workers process loads both; the one loaded last once decided for every job.
    await import('./panorama-tiles.js');
    await import('./pdf-page-tiles.js');
    expect(sharp.concurrency()).toBe(7);
    useImageThreads('panorama');
    expect(sharp.concurrency()).toBe(os.availableParallelism() + 2);
    useImageThreads('pdfPage');
    expect(sharp.concurrency()).toBe(1);
    expect(IMAGE_THREADS.panorama).toBeGreaterThan(IMAGE_THREADS.pdfPage);
  });
});
