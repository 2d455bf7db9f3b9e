import fs from 'node:fs';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS } from '@sitewalk/proto';
import { PdfUpload, db } from '@sitewalk/core/db';
import { closeQueues, queue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { putBuffer, readBuffer } from '@sitewalk/core/storage';
import { isStored, storedNames } from '../../test/support/stored.js';
import { LOST_UPLOAD_MESSAGE } from '@sitewalk/core/services/pdf-uploads.service.js';
import { planPdf, PAPER } from '../../workers/test/pdf-fixtures.js';
import { api, createUser } from './helpers.js';
import { uploadTempRoot } from '../src/http/upload.js';
import { addMember, newProject } from './project-helpers.js';

afterAll(async () => {
  await closeQueues();
  await closeEmitter();
});

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SiteCam', ImageDescription: 'GPS 31.95 35.91' } })
    .toBuffer();

/** Files still waiting in this process's upload folder (the API runs in this test's process). */
const leftUploadFiles = () => (fs.existsSync(uploadTempRoot()) ? fs.readdirSync(uploadTempRoot(), { recursive: true }) : []);

/** The storage key behind a signed URL such as /api/files/projects/1/cover/x.webp?exp=…. */
const keyOf = (url: string) => decodeURIComponent(new URL(url, 'http://x').pathname.replace(/^\/api\/files\//, ''));

describe('project cover', () => {
  it('stores an uploaded photo as a resized WebP without metadata, in two sizes, and replaces the previous one', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const res = await api().post(`/api/projects/${p.id}/cover`).set(owner.auth).attach('file', await photo(3000, 2000), 'site.jpg');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Cover uploaded.');
    const { cover_url, cover_thumb_url } = res.body.data;
    const big = await api().get(cover_url).redirects(1).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(big.status).toBe(200);
    const meta = await sharp(big.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 1600, 1067, undefined]);
    const thumb = await sharp(await readBuffer(keyOf(cover_thumb_url))).metadata();
    expect([thumb.width, thumb.height]).toEqual([480, 320]);

    const second = await api().post(`/api/projects/${p.id}/cover`).set(owner.auth).attach('file', await photo(800, 600), 'new.jpg');
    expect(second.status).toBe(200);
    expect(await isStored(keyOf(cover_url))).toBe(false);
    expect(await isStored(keyOf(cover_thumb_url))).toBe(false);
    expect(await isStored(keyOf(second.body.data.cover_url))).toBe(true);
    // The list shows the card-sized copy.
    const listed = (await api().get('/api/projects').set(owner.auth)).body.data.items.find((x: { id: number }) => x.id === p.id);
    expect(keyOf(listed.cover_thumb_url)).toBe(keyOf(second.body.data.cover_thumb_url));
  });

  it('deletes the cover and its files', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const up = (await api().post(`/api/projects/${p.id}/cover`).set(owner.auth).attach('file', await photo(400, 300), 'a.jpg')).body.data;
    const res = await api().delete(`/api/projects/${p.id}/cover/delete`).set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ cover_url: null, cover_thumb_url: null });
    expect(await isStored(keyOf(up.cover_url))).toBe(false);
    expect((await api().delete(`/api/projects/${p.id}/cover/delete`).set(owner.auth)).status).toBe(200);
  });

  it('answers 415 for a file that is not a picture whatever its name, 413 over the size limit, 403/404/401 for those who may not change it', async () => {
    const owner = await createUser();
    const editor = await createUser();
    const stranger = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, editor, 'editor');
    const pdf = await api().post(`/api/projects/${p.id}/cover`).set(owner.auth).attach('file', await planPdf([{ size: PAPER.A6 }]), 'cover.jpg');
    expect(pdf.status).toBe(415);
    expect(pdf.body.message).toBe('This file is not a JPEG, PNG or WebP image. Accepted: JPEG, PNG, WEBP.');
    const big = Buffer.alloc(UPLOAD_LIMITS.imageBytes + 1024 * 1024, 0);
    big.set(await photo(64, 64));
    const tooBig = await api().post(`/api/projects/${p.id}/cover`).set(owner.auth).attach('file', big, 'huge.jpg');
    expect(tooBig.status).toBe(413);
    expect((await api().post(`/api/projects/${p.id}/cover`).set(editor.auth).attach('file', await photo(10, 10), 'a.jpg')).status).toBe(403);
    expect((await api().post(`/api/projects/${p.id}/cover`).set(stranger.auth).attach('file', await photo(10, 10), 'a.jpg')).status).toBe(404);
    expect((await api().delete(`/api/projects/${p.id}/cover/delete`).set(stranger.auth)).status).toBe(404);
    expect((await api().post(`/api/projects/${p.id}/cover`).attach('file', await photo(10, 10), 'a.jpg')).status).toBe(401);
    expect((await api().post(`/api/projects/${p.id}/cover`).set(owner.auth).field('x', 'y')).status).toBe(400);
    expect((await api().get(`/api/projects/${p.id}`).set(owner.auth)).body.data.cover_url).toBeNull();
  });
});

describe('POST /api/projects/{id}/pdf-sheet', () => {
  it('stores the PDF under a server-chosen name, records the upload and queues one job for it', async () => {
    const owner = await createUser();
    const editor = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, editor, 'editor');
    const res = await api().post(`/api/projects/${p.id}/pdf-sheet`).set(editor.auth).attach('file', await planPdf([{ size: PAPER.A4 }]), '../../Level 1 plans.pdf');
    expect(res.status).toBe(202);
    expect(res.body.message).toBe('The PDF is uploaded. Its pages are being turned into sheets.');
    expect(res.body.data).toMatchObject({ id_project: p.id, original_name: 'Level 1 plans.pdf', status: 'queued', pages_total: null, pages_done: 0, error: null, sheet_ids: [], file_stored: true });
    const row = (await PdfUpload.query().findById(res.body.data.id))!;
    expect(row.file_key).toMatch(new RegExp(`^projects/${p.id}/pdf/[0-9a-f-]{36}\\.pdf$`));
    expect((await readBuffer(row.file_key!)).subarray(0, 5).toString()).toBe('%PDF-');
    const job = await queue('sheets').getJob(`pdf-upload-${row.id}`);
    expect(job?.name).toBe('sheet.from-pdf');
    expect(job?.data).toEqual({ upload_id: row.id });
    expect((await api().get(`/api/projects/${p.id}`).set(owner.auth)).body.data.pdf_uploads.map((u: { id: number }) => u.id)).toEqual([row.id]);
  });

  it('answers 415 for a file that is not a PDF, 413 above the PDF size limit, and stores nothing', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer();
    const notPdf = await api().post(`/api/projects/${p.id}/pdf-sheet`).set(owner.auth).attach('file', png, 'plans.pdf');
    expect(notPdf.status).toBe(415);
    expect(notPdf.body.message).toBe('This file is not a PDF. Accepted: PDF.');
    const text = await api().post(`/api/projects/${p.id}/pdf-sheet`).set(owner.auth).attach('file', Buffer.from('just some words, no PDF here'), 'plans.pdf');
    expect(text.status).toBe(415);

    const huge = Buffer.alloc(UPLOAD_LIMITS.pdfBytes + 1024 * 1024, 0x20);
    huge.write('%PDF-1.7\n');
    const tooBig = await api().post(`/api/projects/${p.id}/pdf-sheet`).set(owner.auth).attach('file', huge, 'huge.pdf');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe(`The file is too large. The limit is ${UPLOAD_LIMITS.pdfBytes / 1024 / 1024} MB.`);
    expect(await PdfUpload.query().where({ id_project: p.id })).toEqual([]);
    expect(await isStored(`projects/${p.id}/pdf`)).toBe(false);
  });

  it('refuses a file that only starts like a PDF, or a PDF cut off in transfer, at upload (415), storing and queueing nothing', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const fake = Buffer.from('%PDF-1.7\nThis is a text file renamed to .pdf; no objects, no xref, no trailer.\n%%EOF\n');
    const res = await api().post(`/api/projects/${p.id}/pdf-sheet`).set(owner.auth).attach('file', fake, 'plans.pdf');
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('This file starts like a PDF but cannot be read as one. Export it again from the drawing program and upload the new file.');
    const whole = await planPdf([{ size: PAPER.A6 }, { size: PAPER.A6 }]);
    const cut = await api().post(`/api/projects/${p.id}/pdf-sheet`).set(owner.auth).attach('file', whole.subarray(0, Math.floor(whole.length * 0.7)), 'plans.pdf');
    expect(cut.status).toBe(415);
    expect(cut.body.message).toMatch(/^This PDF is incomplete: the end of the file is missing\./);
    expect(await PdfUpload.query().where({ id_project: p.id })).toEqual([]);
    expect(await isStored(`projects/${p.id}/pdf`)).toBe(false);
    expect(leftUploadFiles()).toEqual([]);
  });

  it('answers 400 to an empty file and leaves no temporary file behind, whatever the outcome of an upload', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    for (const path of [`/api/projects/${p.id}/pdf-sheet`, `/api/projects/${p.id}/cover`, '/api/users/avatar', '/api/users/cover_image']) {
      const empty = await api().post(path).set(owner.auth).attach('file', Buffer.alloc(0), 'empty.pdf');
      expect(empty.status, path).toBe(400);
      expect(empty.body.message).toBe('The file is empty. Choose the file again.');
      expect(leftUploadFiles(), path).toEqual([]);
    }
    // Refused by type, accepted, and a form field with a NUL byte: nothing left either.
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer();
    expect((await api().post(`/api/projects/${p.id}/pdf-sheet`).set(owner.auth).attach('file', png, 'a.pdf')).status).toBe(415);
    expect((await api().post(`/api/projects/${p.id}/cover`).set(owner.auth).attach('file', png, 'a.png')).status).toBe(200);
    const field = await api().post(`/api/projects/${p.id}/cover`).set(owner.auth).field('note', 'a\u0000b').attach('file', png, 'a.png');
    expect(field.status).toBe(400);
    expect(field.body.message).toMatch(/^The field "note" contains a character that cannot be stored/);
    expect(leftUploadFiles()).toEqual([]);
  });

  it('answers 404 for a project the user cannot see, 403 for a read-only member, 400 without a file, 401 without a token', async () => {
    const owner = await createUser();
    const viewer = await createUser();
    const stranger = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, viewer);
    const pdf = await planPdf([{ size: PAPER.A6 }]);
    expect((await api().post(`/api/projects/${p.id}/pdf-sheet`).set(stranger.auth).attach('file', pdf, 'a.pdf')).status).toBe(404);
    const ro = await api().post(`/api/projects/${p.id}/pdf-sheet`).set(viewer.auth).attach('file', pdf, 'a.pdf');
    expect(ro.status).toBe(403);
    expect(ro.body.message).toBe('You can view this project but not upload files to it.');
    const noFile = await api().post(`/api/projects/${p.id}/pdf-sheet`).set(owner.auth).field('x', 'y');
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toBe('Choose a file to upload (field "file").');
    expect((await api().post(`/api/projects/${p.id}/pdf-sheet`).attach('file', pdf, 'a.pdf')).status).toBe(401);
  });
});

describe('DELETE /api/projects/{id}/pdf-sheet/delete', () => {
  it('removes stored PDFs that are done, keeps one still being processed (409), and says 404 for an upload of another project', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const p = await newProject(owner);
    const other = await newProject(owner);
    const pdf = await planPdf([{ size: PAPER.A6 }]);
    const up = (await api().post(`/api/projects/${p.id}/pdf-sheet`).set(owner.auth).attach('file', pdf, 'a.pdf')).body.data;
    const key = (await PdfUpload.query().findById(up.id))!.file_key!;

    const busy = await api().delete(`/api/projects/${p.id}/pdf-sheet/delete`).set(owner.auth);
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe('This PDF is still being turned into sheets. Delete it once it is done.');
    expect(await isStored(key)).toBe(true);

    await PdfUpload.query().patch({ status: 'done' }).where({ id: up.id });
    expect((await api().delete(`/api/projects/${other.id}/pdf-sheet/delete?id_upload=${up.id}`).set(owner.auth)).status).toBe(404);
    expect((await api().delete(`/api/projects/${p.id}/pdf-sheet/delete`).set(stranger.auth)).status).toBe(404);
    const res = await api().delete(`/api/projects/${p.id}/pdf-sheet/delete?id_upload=${up.id}`).set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'The PDF was deleted. Its sheets stay.', data: { removed: 1 } });
    expect(await isStored(key)).toBe(false);
    expect((await api().get(`/api/projects/${p.id}`).set(owner.auth)).body.data.pdf_uploads[0]).toMatchObject({ id: up.id, file_stored: false });
    const again = await api().delete(`/api/projects/${p.id}/pdf-sheet/delete`).set(owner.auth);
    expect(again.body).toMatchObject({ message: 'There was no stored PDF to delete.', data: { removed: 0 } });
    expect((await api().delete(`/api/projects/${p.id}/pdf-sheet/delete?id_upload=abc`).set(owner.auth)).status).toBe(400);
  });
});

describe('deleting a project removes its files', () => {
  it('removes the cover and stored PDFs from storage', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    await api().post(`/api/projects/${p.id}/cover`).set(owner.auth).attach('file', await photo(300, 200), 'c.jpg').expect(200);
    await api().post(`/api/projects/${p.id}/pdf-sheet`).set(owner.auth).attach('file', await planPdf([{ size: PAPER.A6 }]), 'a.pdf').expect(202);
    expect((await storedNames(`projects/${p.id}`))).toEqual(['cover', 'pdf']);
    await api().delete(`/api/projects/${p.id}`).set(owner.auth).expect(200);
    expect(await isStored(`projects/${p.id}`)).toBe(false);
    expect(await db()('pdf_uploads').where({ id_project: p.id })).toEqual([]);
  });
});

describe('deleting a user removes the files of the projects they owned', () => {
  it('leaves no cover or PDF of theirs in storage', async () => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const p = await newProject(owner);
    await api().post(`/api/projects/${p.id}/cover`).set(owner.auth).attach('file', await photo(300, 200), 'c.jpg').expect(200);
    expect(await isStored(`projects/${p.id}/cover`)).toBe(true);
    await api().delete(`/api/users/${owner.user.id}`).set(admin.auth).expect(200);
    expect(await isStored(`projects/${p.id}`)).toBe(false);
    expect(await db()('projects').where({ id: p.id })).toEqual([]);
  });
});

describe('an upload whose job ended without the worker recording it', () => {
  it('is shown as failed, with the sheets it half made removed, instead of processing forever', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const [upload] = await db()('pdf_uploads')
      .insert({ id_project: p.id, id_user: owner.user.id, file_key: null, original_name: 'lost.pdf', status: 'processing', pages_total: 2, pages_done: 1, updated_at: new Date(Date.now() - 5 * 60_000) })
      .returning('id');
    const [map] = await db()('maps').insert({ id_project: p.id, id_upload: upload.id, page: 1, name: 'Sheet 1', status: 'ready', folder: `projects/${p.id}/maps/half` }).returning('id');
    await putBuffer(`projects/${p.id}/maps/half/thumbnail.jpg`, Buffer.from('x'));
    // A fresh upload (its job may not be queued yet) is left alone.
    const [fresh] = await db()('pdf_uploads').insert({ id_project: p.id, original_name: 'new.pdf', status: 'queued' }).returning('id');

    const detail = (await api().get(`/api/projects/${p.id}`).set(owner.auth)).body.data;
    const byId = new Map(detail.pdf_uploads.map((u: { id: number }) => [u.id, u]));
    expect(byId.get(upload.id)).toMatchObject({ status: 'failed', error: LOST_UPLOAD_MESSAGE, sheet_ids: [], pages_done: 0 });
    expect(byId.get(fresh.id)).toMatchObject({ status: 'queued' });
    expect(detail.maps).toEqual([]);
    expect(await db()('maps').where({ id: map.id }).first()).toBeUndefined();
    expect(await isStored(`projects/${p.id}/maps/half`)).toBe(false);
    // The owner is told, as when the worker fails for good; reading the project again changes nothing.
    await api().get(`/api/projects/${p.id}`).set(owner.auth).expect(200);
    const notice = await queue('notifications').getJob(`notify-sheets-failed-${upload.id}-u${owner.user.id}`);
    expect(notice?.data).toMatchObject({ user_id: owner.user.id, type: 'error' });
    // The file's name and the reason are isolated (Unicode isolates) so they read right inside an Arabic sentence too.
    expect(String(notice?.data.message).replace(/[\u2066-\u2069]/g, '')).toBe(`"lost.pdf": ${LOST_UPLOAD_MESSAGE}`);
  });
});
