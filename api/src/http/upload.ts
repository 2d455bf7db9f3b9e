import os from 'node:os';
import fsp from 'node:fs/promises';
import type { Context, Middleware, Next } from 'koa';
import { koaBody } from 'koa-body';
import { badRequest, payloadTooLarge } from '../core/errors.js';
import type { UploadedFile } from '../core/uploaded-file.js';

export type { UploadedFile };


/** Paths whose requests are uploads: exempt from the request timeout. */
export const isUploadRequest = (ctx: Context) => ctx.is('multipart') === 'multipart';

/**
 * Multipart parsing for one route: files land in the OS temp folder under
 * random names, never larger than maxBytes; the route moves them to storage.
 */
export function multipart(maxBytes: number) {
  // koa-body carries its own copy of the Koa types; at run time it is plain Koa middleware.
  const parser = koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formidable: {
      uploadDir: os.tmpdir(),
      maxFileSize: maxBytes,
      maxTotalFileSize: maxBytes,
      maxFiles: 1,
      maxFields: 20,
      keepExtensions: false,
      allowEmptyFiles: false,
    },
    onError: (err: Error) => {
      throw /maxFileSize|maxTotalFileSize|exceeded/i.test(err.message)
        ? payloadTooLarge(`The file is too large. The limit is ${Math.round(maxBytes / 1024 / 1024)} MB.`)
        : badRequest('The upload could not be read. Please try again.');
    },
  }) as unknown as Middleware;
  return async (ctx: Context, next: Next) => {
    if (!ctx.is('multipart')) throw badRequest('Send the file as multipart/form-data in a field named "file".');
    const declared = Number(ctx.get('content-length'));
    if (declared && declared > maxBytes + 64 * 1024) {
      throw payloadTooLarge(`The file is too large. The limit is ${Math.round(maxBytes / 1024 / 1024)} MB.`);
    }
    await parser(ctx, async () => {
      try {
        await next();
      } finally {
        // Whatever the route did not move into storage is removed.
        for (const f of allFiles(ctx)) await fsp.rm(f.filepath, { force: true });
      }
    });
  };
}

function allFiles(ctx: Context): UploadedFile[] {
  const files = (ctx.request as { files?: Record<string, UploadedFile | UploadedFile[]> }).files ?? {};
  return Object.values(files).flat();
}

/** The one uploaded file of the field (default "file"); 400 when absent. */
export function uploadedFile(ctx: Context, field = 'file'): UploadedFile {
  const files = (ctx.request as { files?: Record<string, UploadedFile | UploadedFile[]> }).files ?? {};
  const f = files[field];
  const one = Array.isArray(f) ? f[0] : f;
  if (!one) throw badRequest(`Choose a file to upload (field "${field}").`);
  return one;
}
