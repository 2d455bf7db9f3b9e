import fsp from 'node:fs/promises';
import { describe, expect } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { parse as parseCsv } from 'csv-parse/sync';
import { saveScreenshot, test } from './browser.js';
import { createUser, uniqueName } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, signIn } from './support/ui.js';
import { placeRooms, projectWithSheet, visitWithRooms } from './support/visits-fixtures.js';
import { api } from '../api/test/helpers.js';

/** Tiling, ffmpeg and the PDF on a loaded two-core machine take their time. */
const SLOW = { timeout: 120_000, interval: 250 } as const;

describe('exporting the snag list', () => {
  test(
    'Export → PDF report shows its progress and downloads a report with a page per snag; CSV follows the filters',
    async ({ page }) => {
      const owner = await createUser();
      const project = await projectWithSheet(owner, uniqueName('Export Tower'));
      const sheet = project.maps[0];
      const visit = await visitWithRooms(owner, { id_project: project.id, name: 'Level 2 walk', id_map: sheet.id }, [{ name: 'Corridor' }]);
      await placeRooms(owner, sheet.id, [{ id: visit.rooms[0].id, x: 300, y: 250 }]);
      for (const [title, priority] of [['Cracked floor tile', 'high'], ['Scratched door', 'low']] as const) {
        const res = await api()
          .post('/api/annotations')
          .set(owner.auth)
          .send({ id_visit: visit.id, id_room: visit.rooms[0].id, yaw: 0.5, pitch: -0.2, zoom: 40, title, priority });
        expect(res.status).toBe(201);
      }

      await signIn(page, { username: owner.user.username, password: owner.password });
      await expectSignedInLayout(page);
      await page.goto('/snaglist');
      await expect.poll(() => page.getByTestId('snag-row').count(), EVENTUALLY).toBe(2);

      await page.getByTestId('snag-export-toggle').click();
      await page.getByTestId('snag-export-pdf').click();
      const downloadButton = page.getByTestId('snag-export-download');
      await expect.poll(() => downloadButton.isVisible(), SLOW).toBe(true);
      await expect.poll(() => page.locator('.Toastify').innerText(), EVENTUALLY).toContain('Your export is ready.');
      await saveScreenshot(page, 'snag-export--ready');
      const [pdf] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
      expect(pdf.suggestedFilename()).toMatch(/^snags-.*\.pdf$/);
      const report = await PDFDocument.load(await fsp.readFile((await pdf.path())!));
      expect(report.getPageCount()).toBe(3);

      // The list's filters go with the export: high priority only.
      await page.getByTestId('snag-export-close').click();
      await page.getByTestId('snag-filter-priority').selectOption('high');
      await expect.poll(() => page.getByTestId('snag-row').count(), EVENTUALLY).toBe(1);
      await page.getByTestId('snag-export-toggle').click();
      await page.getByTestId('snag-export-csv').click();
      await expect.poll(() => downloadButton.isVisible(), SLOW).toBe(true);
      const [csv] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
      const rows: string[][] = parseCsv(await fsp.readFile((await csv.path())!), { bom: true });
      expect(rows.slice(1).map((r) => r[1])).toEqual(['Cracked floor tile']);
    },
    240_000,
  );
});
