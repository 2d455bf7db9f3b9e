import fsp from 'node:fs/promises';
import { loadPdfJs } from '@sitewalk/core/pdfjs.js';
import { isAreaLabel, type PlanLabel } from '../video/room-names.js';

/** What pdf.js gives for a run of text: the string, its text matrix and its size in text space. */
interface TextRun {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

/**
 * The texts of one PDF page that can name an area of the plan ("Kitchen",
 * "Room B"), each at its centre in the pixels of the sheet drawn from that
 * page at `dpi` (pdftoppm's drawing: the same crop box and rotation as
 * pdf.js's viewport).
 */
export async function pageAreaLabels(filePath: string, pageNumber: number, dpi: number): Promise<{ width: number; height: number; labels: PlanLabel[] }> {
  const data = new Uint8Array(await fsp.readFile(filePath));
  // Through the core's loader: pdf.js's polyfills would otherwise replace JSON and Array built-ins for the whole worker process.
  const { getDocument } = await loadPdfJs();
  const doc = await getDocument({ data, isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise;
  try {
    const page = await doc.getPage(pageNumber);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const content = await page.getTextContent();
    const labels: PlanLabel[] = [];
    for (const item of content.items as unknown as TextRun[]) {
      if (typeof item.str !== 'string' || !isAreaLabel(item.str)) continue;
      const [a, b, , , e, f] = item.transform;
      const len = Math.hypot(a, b) || 1;
      // The middle of the run along its direction (it may be turned), half its height above the baseline.
      const cx = e + (a / len) * (item.width / 2) - (b / len) * (item.height / 2);
      const cy = f + (b / len) * (item.width / 2) + (a / len) * (item.height / 2);
      const [x, y] = viewport.convertToViewportPoint(cx, cy);
      labels.push({ text: item.str.trim().replace(/\s+/g, ' '), x, y });
    }
    return { width: viewport.width, height: viewport.height, labels };
  } finally {
    await doc.destroy();
  }
}
