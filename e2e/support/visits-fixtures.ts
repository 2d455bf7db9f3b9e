import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import sharp from 'sharp';
import type { SheetRoom, ProjectDetail, Room, VisitDetail } from '@sitewalk/proto';
import { api } from '../../api/test/helpers.js';
import { newProject } from '../../api/test/project-helpers.js';
import type { TestUser } from './backend.js';

/**
 * Data for the visit tests: real equirectangular panoramas made with sharp
 * (a sky, a floor, coloured walls with big labels, so each room looks
 * different and tiles are not blank), a project with a sheet made by the real
 * PDF worker, and visits whose rooms the real tiling worker has prepared.
 */

const WALLS = ['#c0392b', '#2980b9', '#27ae60', '#8e44ad', '#d35400', '#16a085', '#2c3e50', '#f39c12'];

/** A 360° photo, `width` × width/2, JPEG; `label` is painted eight times around the horizon. */
export async function panorama(label: string, width = 2048, hue = 0): Promise<Buffer> {
  const height = width / 2;
  const step = width / WALLS.length;
  const walls = WALLS.map((c, i) => {
    const color = WALLS[(i + hue) % WALLS.length];
    return `<rect x="${i * step}" y="${height * 0.3}" width="${step}" height="${height * 0.4}" fill="${color}"/>
      <text x="${i * step + step / 2}" y="${height / 2}" font-size="${height / 12}" font-family="sans-serif" fill="#fff" text-anchor="middle">${label} ${i + 1}</text>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height * 0.3}" fill="#87ceeb"/>
    <rect y="${height * 0.7}" width="${width}" height="${height * 0.3}" fill="#8d6e63"/>
    ${walls}
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** A one-page plan with a frame and walls. */
export async function planPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([842, 595]);
  page.drawRectangle({ x: 20, y: 20, width: 802, height: 555, borderColor: rgb(0, 0, 0), borderWidth: 2 });
  for (let w = 0; w < 6; w++) page.drawLine({ start: { x: 80 + w * 120, y: 80 }, end: { x: 80 + w * 120, y: 480 }, thickness: 3 });
  page.drawText('Ground floor', { x: 60, y: 520, size: 28, font });
  return Buffer.from(await pdf.save());
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A project with one ready sheet (made by the real PDF worker). */
export async function projectWithSheet(owner: TestUser, name: string): Promise<ProjectDetail> {
  const project = await newProject(owner, { name });
  const res = await api().post(`/api/projects/${project.id}/pdf-sheet`).set(owner.auth).attach('file', await planPdf(), 'plan.pdf');
  if (res.status !== 202) throw new Error(`PDF not accepted: ${res.status} ${JSON.stringify(res.body)}`);
  for (const until = Date.now() + 120_000; Date.now() < until; await sleep(300)) {
    const detail = (await api().get(`/api/projects/${project.id}`).set(owner.auth)).body.data as ProjectDetail;
    if (detail.pdf_uploads[0]?.status === 'failed') throw new Error(`PDF failed: ${detail.pdf_uploads[0].error}`);
    if (detail.maps.length === 1 && detail.maps[0].status === 'ready') return detail;
  }
  throw new Error('the sheet was not made within 120 s');
}

/** A visit with rooms uploaded through the API and prepared by the real tiling worker. */
export async function visitWithRooms(
  owner: TestUser,
  fields: { id_project: number; name: string; date?: string; id_map?: number },
  rooms: { name: string; hue?: number }[],
): Promise<VisitDetail> {
  const created = await api().post('/api/visits').set(owner.auth).send(fields);
  if (created.status !== 201) throw new Error(`visit not created: ${created.status} ${JSON.stringify(created.body)}`);
  const visit = created.body.data as VisitDetail;
  for (const r of rooms) {
    const res = await api()
      .post('/api/rooms')
      .set(owner.auth)
      .field('id_visit', String(visit.id))
      .field('name', r.name)
      .attach('file', await panorama(r.name, 2048, r.hue ?? 0), `${r.name}.jpg`);
    if (res.status !== 202) throw new Error(`room not accepted: ${res.status} ${JSON.stringify(res.body)}`);
  }
  for (const until = Date.now() + 180_000; Date.now() < until; await sleep(300)) {
    const detail = (await api().get(`/api/visits/${visit.id}`).set(owner.auth)).body.data as VisitDetail;
    const failed = detail.rooms.find((r: Room) => r.status === 'failed');
    if (failed) throw new Error(`room failed: ${failed.error}`);
    if (detail.rooms.length === rooms.length && detail.rooms.every((r: Room) => r.status === 'ready')) return detail;
  }
  throw new Error('the rooms were not ready within 180 s');
}

/** Places rooms on a sheet through the API. */
export async function placeRooms(owner: TestUser, mapId: number, rooms: { id: number; x: number; y: number; heading?: number | null }[]): Promise<SheetRoom[]> {
  const res = await api().put(`/api/maps/${mapId}/room-positions`).set(owner.auth).send({ rooms });
  if (res.status !== 200) throw new Error(`rooms not placed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as SheetRoom[];
}
