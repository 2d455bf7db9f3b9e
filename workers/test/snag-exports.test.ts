import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import yauzl from 'yauzl';
import { CSV_COLUMNS, snagsToCsv } from '../src/exports/csv.js';
import { PassThrough } from 'node:stream';
import { writeBcf, type BcfOptions } from '../src/exports/bcf.js';
import { writePdfReport, type PdfReportOptions } from '../src/exports/pdf-report.js';
import { picturesFrom, stableGuid, type SnagPictures, type SnagRecord } from '../src/exports/snag-record.js';
import { panoramaSnapshot, sheetCrop, SNAPSHOT_SIZE } from '../src/adapters/snag-images.js';
import { reportTranslator } from '../src/exports/report-words.js';
import { writeSheetImages } from '../src/adapters/pdf-page-tiles.js';
import { equirectangular, RED } from './panorama-fixtures.js';

const ORIGIN = 'https://sitewalk.example';

/** The bytes a generator writes. */
async function collect(write: (out: PassThrough) => Promise<void>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await write(out);
  return Buffer.concat(chunks);
}
const snagsToBcf = (snags: SnagRecord[], pics: Map<number, SnagPictures>, opts: BcfOptions, onSnag?: (n: number) => void) =>
  collect((out) => writeBcf(snags, picturesFrom(pics), opts, out, onSnag));
const snagsToPdf = (snags: SnagRecord[], pics: Map<number, SnagPictures>, opts: PdfReportOptions, onSnag?: (n: number) => void) =>
  collect((out) => writePdfReport(snags, picturesFrom(pics), opts, out, onSnag));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const snag = (over: Partial<SnagRecord> = {}): SnagRecord => ({
  id: 1,
  title: 'Cracked floor tile',
  description: 'Tile by the door is cracked, "badly", across two rows\nReplace both.',
  status: 'open',
  priority: 'high',
  project_name: 'Tower B',
  visit_name: 'Level 3 walk',
  visit_date: '2026-11-20',
  room_name: 'Lobby',
  map_name: 'Level 3',
  yaw: Math.PI / 2,
  pitch: 0,
  zoom: 50,
  x: 2500,
  y: 1500,
  room_place: { x: 2400, y: 1500, heading: 0 },
  assignee: 'Rana Haddad',
  author: 'Sam Supervisor',
  due_date: '2026-11-25',
  overdue: true,
  created_at: '2026-11-20T09:00:00.000Z',
  updated_at: '2026-11-21T10:30:00.000Z',
  files: ['crack.jpg'],
  history: [
    { at: '2026-11-20T09:00:00.000Z', who: 'Sam Supervisor', text: 'Created', comment: null },
    { at: '2026-11-21T10:30:00.000Z', who: 'Rana Haddad', text: 'Status: Open → In progress', comment: 'On it tomorrow' },
  ],
  link: `${ORIGIN}/viewer/ABC123/7/1`,
  ...over,
});

const SNAGS: SnagRecord[] = [
  snag(),
  snag({ id: 2, title: '=HYPERLINK("http://evil.example","click")', description: '+1 more', status: 'ready_for_review', assignee: '@someone', history: [] }),
  snag({ id: 3, title: 'شرخ في جدار الممر', description: 'الشرخ طوله متر واحد', status: 'closed', room_name: null, yaw: null, pitch: null, room_place: null, map_name: null, x: null, y: null, due_date: null, overdue: false }),
];

let work: string;
let pictures: Map<number, SnagPictures>;
let panoPath: string;
let sheetDir: string;
beforeAll(async () => {
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'snag-exports-'));
  // A red square at yaw +90° (three quarters across), 30° up.
  panoPath = path.join(work, 'pano.jpg');
  await fsp.writeFile(panoPath, await equirectangular(2048, 1024, [{ x: 1536 - 100, y: 341 - 100, size: 200, color: RED }]));
  // A white sheet with a blue square around (2500, 1500).
  const sheet = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: { r: 255, g: 255, b: 255 } } })
    .composite([{ input: { create: { width: 300, height: 300, channels: 3, background: { r: 0, g: 0, b: 255 } } }, left: 2350, top: 1350 }])
    .removeAlpha()
    .raw()
    .toBuffer();
  sheetDir = path.join(work, 'sheet');
  await writeSheetImages({ data: sheet, width: 3000, height: 2000 }, sheetDir);
  pictures = new Map([[1, { snapshot: await panoramaSnapshot(panoPath, { yaw: Math.PI / 2, pitch: Math.PI / 6, zoom: 50 }), sheet: await sheetCrop({ tilesDir: path.join(sheetDir, 'tiles'), width: 3000, height: 2000, tileSize: 512, maxZoom: 3 }, { x: 2500, y: 1500 }) }]]);
});
afterAll(async () => {
  if (work) await fsp.rm(work, { recursive: true, force: true });
});

async function pixel(img: Buffer, x: number, y: number) {
  const { data } = await sharp(img).extract({ left: Math.round(x), top: Math.round(y), width: 3, height: 3 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const n = data.length / 3;
  let r = 0, g = 0, b = 0;
  for (let i = 0; i < data.length; i += 3) { r += data[i]; g += data[i + 1]; b += data[i + 2]; }
  return { r: r / n, g: g / n, b: b / n };
}

function unzip(buf: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('snag pictures', () => {
  it('cuts the 360 view at the pin: the defect is in the middle of the snapshot', async () => {
    const img = pictures.get(1)!.snapshot!;
    const meta = await sharp(img).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([SNAPSHOT_SIZE.width, SNAPSHOT_SIZE.height, 'jpeg']);
    // Beside the drawn pin, inside the red square; far left of the view is the gradient, not red.
    const near = await pixel(img, SNAPSHOT_SIZE.width / 2 + 60, SNAPSHOT_SIZE.height / 2 + 60);
    expect(near.r).toBeGreaterThan(200);
    expect(near.g).toBeLessThan(60);
    const far = await pixel(img, 20, SNAPSHOT_SIZE.height / 2);
    expect(far.r).toBeLessThan(200);
  });

  it('crops the sheet around the pin and marks it', async () => {
    const img = pictures.get(1)!.sheet!;
    const meta = await sharp(img).metadata();
    expect([meta.width, meta.height]).toEqual([800, 600]);
    // The 1200 × 900 window is pushed inside the sheet: x 1800..3000, y 1050..1950, shown at 2/3.
    const px = (2500 - 1800) * (2 / 3), py = (1500 - 1050) * (2 / 3);
    const blue = await pixel(img, px + 35, py + 35);
    expect(blue.b).toBeGreaterThan(200);
    expect(blue.r).toBeLessThan(60);
    const ring = await pixel(img, px + 14, py - 1);
    expect(ring.r).toBeGreaterThan(150);
    const paper = await pixel(img, 20, 20);
    expect(paper).toMatchObject({ r: expect.any(Number) });
    expect(Math.min(paper.r, paper.g, paper.b)).toBeGreaterThan(240);
  });
});

describe('CSV export', () => {
  it('is RFC 4180 with a header, one row per snag, text kept whole and formulas defused', () => {
    const csv = snagsToCsv(SNAGS);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv).toContain('\r\n');
    const rows: string[][] = parseCsv(csv, { bom: true, relax_column_count: false });
    expect(rows).toHaveLength(SNAGS.length + 1);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const col = (name: (typeof CSV_COLUMNS)[number]) => CSV_COLUMNS.indexOf(name);
    expect(rows[1][col('Description')]).toBe(SNAGS[0].description);
    expect(rows[1][col('Status')]).toBe('Open');
    expect(rows[1][col('Overdue')]).toBe('Yes');
    expect(rows[1][col('Yaw (°)')]).toBe('90');
    expect(rows[2][col('Title')]).toBe(`'${SNAGS[1].title}`);
    expect(rows[2][col('Description')]).toBe("'+1 more");
    expect(rows[2][col('Assignee')]).toBe("'@someone");
    expect(rows[3][col('Title')]).toBe('شرخ في جدار الممر');
    expect(rows[3][col('Room')]).toBe('');
    expect(rows.slice(1).map((r) => r[col('ID')])).toEqual(['1', '2', '3']);
  });

  it("speaks the requester's language: headings, statuses and priorities in Arabic", async () => {
    const ar = JSON.parse(await fsp.readFile(path.resolve('proto/translations/ar.json'), 'utf8')) as Record<string, string>;
    const rows: string[][] = parseCsv(snagsToCsv(SNAGS, await reportTranslator('ar')), { bom: true });
    const col = (name: (typeof CSV_COLUMNS)[number]) => CSV_COLUMNS.indexOf(name);
    expect(rows[0][col('Status')]).toBe(ar['Status']);
    expect(rows[0][col('Due date')]).toBe(ar['Due date']);
    expect(rows[1][col('Status')]).toBe(ar['Open']);
    expect(rows[1][col('Priority')]).toBe(ar['High']);
    expect(rows[1][col('Overdue')]).toBe(ar['Yes']);
    // An unknown language stays English.
    expect(parseCsv(snagsToCsv(SNAGS, await reportTranslator('xx')), { bom: true })[0]).toEqual([...CSV_COLUMNS]);
  });

  it('of no snags is the header alone', () => {
    const rows: string[][] = parseCsv(snagsToCsv([]), { bom: true });
    expect(rows).toEqual([[...CSV_COLUMNS]]);
  });
});

describe('BCF 2.1 export', () => {
  it('holds bcf.version and a folder per topic GUID with a markup, a viewpoint and a snapshot', async () => {
    const done: number[] = [];
    const zip = await snagsToBcf(SNAGS, pictures, { origin: ORIGIN }, (n) => done.push(n));
    expect(done).toEqual([1, 2, 3]);
    const files = await unzip(zip);
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, parseAttributeValue: false, isArray: (_name, jpath) => jpath === 'Markup.Comment' || jpath === 'Markup.Topic.Labels' });
    for (const [name, data] of files) {
      if (name.endsWith('.jpg')) continue;
      expect(XMLValidator.validate(data.toString('utf8')), name).toBe(true);
    }
    const version = parser.parse(files.get('bcf.version')!.toString());
    expect(version.Version['@_VersionId']).toBe('2.1');
    expect(version.Version.DetailedVersion).toBe('2.1');

    const folders = new Set([...files.keys()].filter((n) => n.includes('/')).map((n) => n.split('/')[0]));
    expect(folders.size).toBe(SNAGS.length);
    for (const f of folders) expect(f).toMatch(UUID);

    for (const s of SNAGS) {
      const guid = stableGuid(`${ORIGIN}/annotations/${s.id}`);
      expect(folders.has(guid)).toBe(true);
      const markup = parser.parse(files.get(`${guid}/markup.bcf`)!.toString()).Markup;
      expect(markup.Topic['@_Guid']).toBe(guid);
      expect(markup.Topic.Title).toBe(s.title);
      expect(markup.Topic.CreationDate).toBe(s.created_at);
      expect(markup.Comment ?? []).toHaveLength(s.history.length);
      const vp = parser.parse(files.get(`${guid}/viewpoint.bcfv`)!.toString()).VisualizationInfo;
      expect(vp['@_Guid']).toMatch(UUID);
      expect(markup.Viewpoints['@_Guid']).toBe(vp['@_Guid']);
      expect(markup.Viewpoints.Viewpoint).toBe('viewpoint.bcfv');
      expect(files.has(`${guid}/snapshot.jpg`)).toBe(s.id === 1);
      if (s.id === 1) {
        expect(markup.Topic['@_TopicStatus']).toBe('Open');
        expect(markup.Topic.AssignedTo).toBe('Rana Haddad');
        expect(markup.Topic.DueDate).toBe('2026-11-25T00:00:00Z');
        expect(markup.Comment[1].Comment).toBe('Status: Open → In progress: On it tomorrow');
        expect(markup.Viewpoints.Snapshot).toBe('snapshot.jpg');
        expect((await sharp(files.get(`${guid}/snapshot.jpg`)!).metadata()).format).toBe('jpeg');
        // Heading 0 plus yaw 90°: the camera at the room's place looks along +X (to the right of the sheet).
        const cam = vp.PerspectiveCamera;
        expect(cam.CameraViewPoint).toEqual({ X: '2400', Y: '-1500', Z: '0' });
        expect(Number(cam.CameraDirection.X)).toBeCloseTo(1, 5);
        expect(Number(cam.CameraDirection.Y)).toBeCloseTo(0, 5);
        expect(Number(cam.CameraUpVector.Z)).toBeCloseTo(1, 5);
        expect(cam.FieldOfView).toBe('60');
      }
    }
    // Markup text is escaped, not markup: the formula title comes back as written.
    const g2 = stableGuid(`${ORIGIN}/annotations/2`);
    expect(parser.parse(files.get(`${g2}/markup.bcf`)!.toString()).Markup.Topic.Title).toBe(SNAGS[1].title);
  });

  it('gives a snag the same topic GUID in every export of the same server, and another on another server', async () => {
    const a = await unzip(await snagsToBcf([SNAGS[0]], new Map(), { origin: ORIGIN }));
    const b = await unzip(await snagsToBcf([SNAGS[0]], new Map(), { origin: ORIGIN }));
    const c = await unzip(await snagsToBcf([SNAGS[0]], new Map(), { origin: 'https://other.example' }));
    const topic = (m: Map<string, Buffer>) => [...m.keys()].find((k) => k.endsWith('/markup.bcf'))!.split('/')[0];
    expect(topic(a)).toBe(topic(b));
    expect(topic(c)).not.toBe(topic(a));
  });
});

describe('PDF report', () => {
  it('has a cover and one page per snag, with the pictures and the text of each snag', async () => {
    const done: number[] = [];
    const pdf = await snagsToPdf(SNAGS, pictures, { title: 'Snag list report', subtitle: ['SiteWalk', 'Tower B'], generatedAt: '2026-11-26T12:00:00.000Z' }, (n) => done.push(n));
    expect(done).toEqual([1, 2, 3]);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(SNAGS.length + 1);
    const file = path.join(work, 'report.pdf');
    await fsp.writeFile(file, pdf);
    expect(execFileSync('pdfinfo', [file]).toString()).toMatch(/Pages:\s+4/);
    const pageText = (n: number) => execFileSync('pdftotext', ['-f', String(n), '-l', String(n), '-layout', file, '-']).toString();
    expect(pageText(1)).toContain('3 snags');
    expect(pageText(2)).toContain('Cracked floor tile');
    expect(pageText(2)).toContain('Snag #1');
    expect(pageText(2)).toContain('Rana Haddad');
    expect(pageText(2)).toContain('On it tomorrow');
    expect(pageText(3)).toContain('=HYPERLINK');
    expect(pageText(4)).toContain('Not pinned in a 360 view.');
    // The Arabic title is drawn with a font that has its letters (an empty box would extract as nothing).
    expect(pageText(4)).toMatch(/[\u0600-\u06FF]{2,}/);
    // The two pictures of snag 1 are embedded on its page.
    const images = execFileSync('pdfimages', ['-list', '-f', '2', '-l', '2', file]).toString().trim().split('\n').slice(2);
    expect(images.filter((l) => / image /.test(l)).length).toBeGreaterThanOrEqual(2);
  });

  it('is written in Arabic for a requester who uses the app in Arabic', async () => {
    const t = await reportTranslator('ar');
    const pdf = await snagsToPdf(SNAGS.slice(0, 1), pictures, { title: t('Snag list report'), subtitle: [], generatedAt: '2026-11-26T12:00:00.000Z', t });
    const file = path.join(work, 'report-ar.pdf');
    await fsp.writeFile(file, pdf);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    // The labels are Arabic letters now, the English ones gone.
    expect(text).not.toContain('Assignee');
    expect(text).not.toContain('History (newest first)');
    expect(text.match(/[\u0600-\u06FF]/g)?.length ?? 0).toBeGreaterThan(50);
  });

  it('of no snags is the cover alone, saying so', async () => {
    const pdf = await snagsToPdf([], new Map(), { title: 'Snag list report', subtitle: [], generatedAt: '2026-11-26T12:00:00.000Z' });
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
  });
});
