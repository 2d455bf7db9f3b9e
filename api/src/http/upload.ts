import path from 'node:path';
import fsp from 'node:fs/promises';
import type { Context, Middleware, Next } from 'koa';
import { koaBody } from 'koa-body';
import { badRequest, payloadTooLarge } from '@sitewalk/core/errors.js';
import { config } from '@sitewalk/core/config.js';
import { assertReadableText } from './validate.js';
import type { UploadedFile } from '@sitewalk/core/uploaded-file.js';

export type { UploadedFile };


/** Text fields one upload form may carry besides its file. */
const MAX_FIELDS = 20;

/** Paths whose requests are uploads: exempt from the request timeout (multipart, and the bytes of a resumable upload). */
export const isUploadRequest = (ctx: Context) => ctx.is('multipart') === 'multipart' || ctx.is('application/offset+octet-stream') === 'application/offset+octet-stream';

/** Where uploads wait while their request runs: one folder per request, below one per process. */
export const uploadTempRoot = () => path.join(config.dataDir, 'tmp', 'uploads', String(process.pid));

/**
 * Multipart parsing for one route: files land in a folder of their own for
 * this request under random names, never larger than maxBytes; the route
 * moves them to storage. Whatever happens — a refused file, an empty one
 * formidable gives up on half-way, an error in the route — the folder goes
 * when the request ends, so nothing is ever left behind.
 */
export function multipart(maxBytes: number) {
  const tooLarge = () => payloadTooLarge(`The file is too large. The limit is ${Math.round(maxBytes / 1024 / 1024)} MB.`);
  return async (ctx: Context, next: Next) => {
    if (!ctx.is('multipart')) throw badRequest('Send the file as multipart/form-data in a field named "file".');
    const declared = Number(ctx.get('content-length'));
    if (declared && declared > maxBytes + 64 * 1024) throw tooLarge();
    await fsp.mkdir(uploadTempRoot(), { recursive: true });
    const dir = await fsp.mkdtemp(path.join(uploadTempRoot(), 'req-'));
    try {
      // koa-body carries its own copy of the Koa types; at run time it is plain Koa middleware.
      const parser = koaBody({
        multipart: true,
        json: false,
        urlencoded: false,
        text: false,
        formidable: {
          uploadDir: dir,
          maxFileSize: maxBytes,
          maxTotalFileSize: maxBytes,
          maxFiles: 1,
          maxFields: MAX_FIELDS,
          keepExtensions: false,
          allowEmptyFiles: false,
        },
        onError: (err: Error) => {
          // Each limit its own sentence: too many fields is not a file too large.
          if (/maxFields \(/.test(err.message)) throw badRequest(`The form has too many fields (at most ${MAX_FIELDS}).`);
          if (/maxFiles \(/.test(err.message)) throw badRequest('Send one file at a time.');
          if (/maxFieldsSize/.test(err.message)) throw payloadTooLarge('The text fields of the form are too long.');
          if (/maxFileSize|maxTotalFileSize|exceeded/i.test(err.message)) throw tooLarge();
          if (/empty/i.test(err.message)) throw badRequest('The file is empty. Choose the file again.');
          throw badRequest('The upload could not be read. Please try again.');
        },
      }) as unknown as Middleware;
      await parser(ctx, async () => {
        // The form's text fields get the same check as every JSON body (see rejectUnreadableText).
        assertReadableText((ctx.request as { body?: unknown }).body, 'field');
        await next();
      });
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
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
