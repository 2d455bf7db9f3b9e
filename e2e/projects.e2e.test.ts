import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { withoutIsolates, type ProjectDetail } from '@sitewalk/proto';
import { api } from '../api/test/helpers.js';
import { addMember, newProject } from '../api/test/project-helpers.js';
import { saveScreenshot, test } from './browser.js';
import { admin, createUser, uniqueName, type TestUser } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, signIn } from './support/ui.js';

/** A plan set of `pages` pages, each with a drawing number, a frame and some walls, so its tiles are not blank. */
async function planSet(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = pdf.addPage([842, 595]); // A4 landscape, in points
    page.drawRectangle({ x: 20, y: 20, width: 802, height: 555, borderColor: rgb(0, 0, 0), borderWidth: 2 });
    for (let w = 0; w < 6; w++) page.drawLine({ start: { x: 80 + w * 120, y: 80 }, end: { x: 80 + w * 120, y: 480 }, thickness: 3 });
    page.drawText(`Level ${i} floor plan`, { x: 60, y: 520, size: 28, font });
  }
  return Buffer.from(await pdf.save());
}

/** Uploads a plan set through the API and waits until the worker has made its sheets. */
async function projectWithSheets(owner: TestUser, fields: { name: string; city?: string; description?: string }, pages: number): Promise<ProjectDetail> {
  const project = await newProject(owner, fields);
  const res = await api().post(`/api/projects/${project.id}/pdf-sheet`).set(owner.auth).attach('file', await planSet(pages), 'plans.pdf');
  if (res.status !== 202) throw new Error(`PDF not accepted: ${res.status} ${JSON.stringify(res.body)}`);
  for (const until = Date.now() + 90_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
    const detail = (await api().get(`/api/projects/${project.id}`).set(owner.auth)).body.data as ProjectDetail;
    if (detail.pdf_uploads[0]?.status === 'failed') throw new Error(`PDF failed: ${detail.pdf_uploads[0].error}`);
    if (detail.maps.length === pages && detail.maps.every((m) => m.status === 'ready')) return detail;
  }
  throw new Error('the sheets were not made within 90 s');
}

const htmlDir = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('dir'));
const ARABIC_SCRIPT = /[\u0600-\u06FF]/;

/** Toasts on screen (react-toastify), as text. */
const toasts = (page: Page) => page.locator('.Toastify').innerText();

/**
 * Records, in the page, every state the PDF progress panel shows (the job is
 * quick, so polling from the test could miss the steps in between).
 */
async function recordProgress(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __pdfProgress: string[] }).__pdfProgress = seen;
    const note = () => {
      const panel = document.querySelector('[data-testid="pdf-progress"]');
      const text = panel?.textContent?.trim();
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

describe('projects and sheets', () => {
  test('a supervisor creates a project, turns a three-page PDF into sheets live, zooms into one, renames and deletes the project', { timeout: 180_000 }, async ({ page }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password });
    await expectSignedInLayout(page);

    // A new user has no projects: the empty state offers to create the first one.
    await page.getByRole('navigation', { name: /main|sidebar|menu/i }).getByRole('link', { name: 'Projects' }).click();
    await page.waitForURL('**/projects');
    await page.getByRole('link', { name: 'Create your first project' }).click();
    await page.waitForURL('**/editproject/new');

    // The name is required, and the message goes away as soon as it is typed.
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByText('Project name is required').isVisible(), EVENTUALLY).toBe(true);
    // The first field in error takes the focus, so the message is in view and the user can type at once.
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? ''), EVENTUALLY).toContain('Project name');
    const name = uniqueName('Riverside Tower');
    await page.getByLabel('Project name').fill(name);
    expect(await page.getByText('Project name is required').count()).toBe(0);
    await page.getByLabel('City').fill('Amman');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Project created successfully!');
    // The created project's id is remembered: the form now edits it.
    await page.waitForURL(/\/editproject\/\d+$/);
    const projectId = Number(new URL(page.url()).pathname.split('/').pop());

    // It opens in this tab, so it promises no new tab: no target and no new-tab icon.
    const view = page.getByRole('link', { name: 'View project' });
    expect(await view.getAttribute('target')).toBeNull();
    expect(await view.locator('.bi-box-arrow-up-right').count()).toBe(0);
    await view.click();
    await page.waitForURL(`**/project/${projectId}`);
    await expect.poll(() => page.getByTestId('project-name').textContent(), EVENTUALLY).toBe(name);
    await expect.poll(() => page.getByTestId('sheets-empty').isVisible(), EVENTUALLY).toBe(true);

    // Upload a three-page plan set and watch the pages become sheets without a reload.
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await recordProgress(page);
    await page.getByLabel('PDF plan file').setInputFiles({ name: 'plans.pdf', mimeType: 'application/pdf', buffer: await planSet(3) });
    await expect.poll(() => page.getByTestId('sheet-card').count(), { timeout: 90_000, interval: 200 }).toBe(3);
    await expect.poll(() => page.getByTestId('pdf-done').textContent(), { timeout: 30_000 }).toContain('plans.pdf: 3 sheets made');
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    const progress = await page.evaluate(() => (window as unknown as { __pdfProgress: string[] }).__pdfProgress);
    // The upload bar, then the per-page progress, in order.
    expect(progress.some((s) => s.includes('Uploading plans.pdf'))).toBe(true);
    const pages = progress.flatMap((s) => [...s.matchAll(/Page (\d) of 3 made into a sheet/g)].map((m) => Number(m[1])));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages).toEqual([...pages].sort());
    expect(await page.getByTestId('sheets-count').textContent()).toBe('3');
    // The tab is titled with the project's own name; a team of one is "1 person".
    await expect.poll(() => page.title(), EVENTUALLY).toContain(name);
    expect(await page.getByText('1 person', { exact: true }).isVisible()).toBe(true);
    await saveScreenshot(page, 'projects--project-with-three-sheets');

    // The dashboard counts what was just made, without signing out and in, and still after a reload.
    await page.getByRole('navigation', { name: /main|sidebar|menu/i }).getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.getByTestId('stat-projects').textContent(), EVENTUALLY).toBe('1');
    await expect.poll(() => page.getByTestId('stat-sheets').textContent(), EVENTUALLY).toBe('3');
    await page.reload();
    await expect.poll(() => page.getByTestId('stat-sheets').textContent(), EVENTUALLY).toBe('3');
    await page.goto(`/project/${projectId}`);

    // Open a sheet: Leaflet shows the plan's tiles.
    await page.getByRole('link', { name: 'Open sheet Sheet 1' }).click();
    await page.waitForURL(/\/sheet\/\d+$/);
    await expect.poll(() => page.getByTestId('sheet-name').textContent(), EVENTUALLY).toContain('Sheet 1');
    await expect
      .poll(
        () =>
          page.evaluate(
            () => [...document.querySelectorAll<HTMLImageElement>('img.leaflet-tile-loaded')].filter((img) => img.naturalWidth > 0).length,
          ),
        EVENTUALLY,
      )
      .toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    // The trail goes through the sheet's project, and the tab names the sheet.
    // As read: the sheet's name is an isolated run (invisible marks that keep its direction in Arabic).
    await expect.poll(async () => (await page.locator('.sw-breadcrumbs li').allInnerTexts()).map(withoutIsolates), EVENTUALLY).toEqual(['Dashboard', 'Projects', name, 'Sheet 1']);
    expect(withoutIsolates(await page.title())).toMatch(/^Sheet 1/);
    await saveScreenshot(page, 'projects--sheet-viewer');

    // Rename the project: only the changed field is sent.
    await page.getByRole('link', { name: 'Back to the project' }).click();
    await page.getByRole('link', { name: 'Edit project' }).click();
    await page.waitForURL(`**/editproject/${projectId}`);
    const newName = `${name} (phase 2)`;
    await page.getByLabel('Project name').fill(newName);
    // Leaving with the change unsaved asks first; staying keeps what was typed.
    await page.getByRole('navigation', { name: /main|sidebar|menu/i }).getByRole('link', { name: 'Dashboard' }).click();
    const leave = page.getByRole('dialog');
    await expect.poll(() => leave.textContent(), EVENTUALLY).toContain('Leave without saving?');
    await leave.getByRole('button', { name: 'Stay on this page' }).click();
    await expect.poll(() => leave.count(), EVENTUALLY).toBe(0);
    expect(new URL(page.url()).pathname).toBe(`/editproject/${projectId}`);
    expect(await page.getByLabel('Project name').inputValue()).toBe(newName);
    // Closing or reloading the tab would raise the browser's own question too.
    expect(await page.evaluate(() => !window.dispatchEvent(new Event('beforeunload', { cancelable: true })))).toBe(true);
    // A value the server would refuse is said before anything is sent, with the focus on it; changing it clears the message.
    const area = page.getByLabel('Area (m²)');
    await area.fill('0');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByText('Area must be greater than zero.').isVisible(), EVENTUALLY).toBe(true);
    await expect.poll(() => area.evaluate((el) => el === document.activeElement), EVENTUALLY).toBe(true);
    await area.fill('');
    await expect.poll(() => page.getByText('Area must be greater than zero.').count(), EVENTUALLY).toBe(0);
    const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/projects/${projectId}`));
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect((await put).postDataJSON()).toEqual({ name: newName });
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Project updated successfully!');

    // Delete it, after confirming, and land on /projects, where it is gone.
    await page.getByRole('button', { name: 'Delete project' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.textContent(), EVENTUALLY).toContain(`Delete "${newName}"? This cannot be undone.`);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL('**/projects');
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Project deleted successfully!');
    await expect.poll(() => page.getByTestId('projects-empty').isVisible(), EVENTUALLY).toBe(true);
  });

  test('an empty sheet offers to upload its plan, and shows it once drawn', async ({ page }) => {
    const owner = await createUser();
    const project = await newProject(owner, { name: uniqueName('Depot') });
    const created = await api().post('/api/maps').set(owner.auth).send({ id_project: project.id, name: 'Roof' });
    await signIn(page, { username: owner.user.username, password: owner.password });
    await expectSignedInLayout(page);
    await page.goto(`/sheet/${created.body.data.id}`);
    await expect.poll(() => page.getByText('This sheet has no plan yet.').isVisible(), EVENTUALLY).toBe(true);
    const image = await sharp({ create: { width: 900, height: 500, channels: 3, background: '#ffffff' } })
      .composite([{ input: Buffer.from('<svg width="900" height="500"><rect x="20" y="20" width="860" height="460" fill="none" stroke="#000" stroke-width="8"/></svg>'), top: 0, left: 0 }])
      .png()
      .toBuffer();
    await page.getByLabel('Plan file').setInputFiles({ name: 'roof.png', mimeType: 'image/png', buffer: image });
    await page.getByRole('button', { name: 'Upload the plan' }).click();
    // Drawn by the worker, then shown without a reload.
    await expect.poll(() => page.locator('img.leaflet-tile-loaded').count(), { timeout: 60_000, interval: 250 }).toBeGreaterThan(0);
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('The plan is on the sheet.');
    expect(await page.getByText('This sheet has no plan yet.').count()).toBe(0);
    await saveScreenshot(page, 'projects--empty-sheet-gets-its-plan');
  });

  test('in Arabic the project screens read right to left, in light and dark mode', async ({ page }) => {
    const owner = await createUser();
    const project = await projectWithSheets(owner, { name: 'برج النخيل', city: 'عمّان', description: 'مبنى سكني من عشرة طوابق.' }, 2);
    await signIn(page, { username: owner.user.username, password: owner.password });
    await expectSignedInLayout(page);
    // Arabic chosen on this browser, as the language switcher leaves it.
    await page.evaluate(() => {
      sessionStorage.setItem('language', 'ar');
      localStorage.setItem('ls_language', 'ar');
    });

    await page.goto(`/project/${project.id}`);
    await expect.poll(() => htmlDir(page), EVENTUALLY).toBe('rtl');
    await expect.poll(() => page.getByRole('heading', { name: 'المخططات' }).isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByTestId('sheet-card').count()).toBe(2);
    expect(await page.getByRole('button', { name: 'رفع مخططات PDF' }).isVisible()).toBe(true);
    // The sheets column starts on the right: its card sits right of the details card.
    const sheets = await page.getByRole('region', { name: /المخططات/ }).boundingBox();
    const details = await page.getByRole('region', { name: 'التفاصيل' }).boundingBox();
    expect(sheets!.x).toBeGreaterThan(details!.x);
    await saveScreenshot(page, 'projects--arabic-project');

    await page.goto('/projects');
    await expect.poll(() => page.getByTestId('project-card').count(), EVENTUALLY).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(ARABIC_SCRIPT);
    await saveScreenshot(page, 'projects--arabic-list');

    await page.goto(`/editproject/${project.id}`);
    await expect.poll(() => page.getByLabel('اسم المشروع').inputValue(), EVENTUALLY).toBe('برج النخيل');
    await page.getByLabel('اسم المشروع').fill('  ');
    await page.getByRole('button', { name: 'حفظ التغييرات' }).click();
    await expect.poll(() => page.getByText('اسم المشروع مطلوب').isVisible(), EVENTUALLY).toBe(true);
    await saveScreenshot(page, 'projects--arabic-edit-form');

    await page.getByTestId('dark-mode-toggle').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-bs-theme')), EVENTUALLY).toBe('dark');
    // An English sheet name and code in the Arabic screens: each its own run, never "Roof planA-105" or "A-105 · Roof plan".
    const sheet = project.maps[0]!;
    expect((await api().put(`/api/maps/${sheet.id}`).set(owner.auth).send({ name: 'Roof plan', page_label: 'A-105' })).status).toBe(200);
    await page.goto(`/sheet/${sheet.id}`);
    await expect
      .poll(() => page.evaluate(() => document.querySelectorAll('img.leaflet-tile-loaded').length), EVENTUALLY)
      .toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'تكبير' }).isVisible()).toBe(true);
    expect(await page.getByTestId('sheet-name').innerText()).toBe('Roof plan A-105');
    await expect.poll(() => page.title(), EVENTUALLY).toMatch(/^\u2068Roof plan\u2069 · \u2068A-105\u2069 \| /);
    // The trail ends with the sheet, after its (Arabic) project: the isolates are invisible, the words in order.
    const trail = page.getByRole('navigation', { name: 'مسار التنقل' });
    await expect.poll(async () => withoutIsolates(await trail.innerText()), EVENTUALLY).toMatch(/برج النخيل[\s\S]*Roof plan · A-105/);
    await saveScreenshot(page, 'projects--arabic-dark-sheet');
    await page.goto(`/project/${project.id}`);
    await expect.poll(() => page.getByTestId('sheet-card').count(), EVENTUALLY).toBe(2);
    await saveScreenshot(page, 'projects--arabic-dark-project');
  });

  test('an administrator validates a new project, which then appears on its public showcase page', async ({ page, browser, baseUrl }) => {
    const owner = await createUser();
    const project = await newProject(owner, { name: uniqueName('Harbour Offices'), city: 'Aqaba', description: 'Four floors of offices by the sea.' });
    expect(project.validated).toBe(false);

    // Not public while it awaits approval.
    const visitor = await browser.newContext({ baseURL: baseUrl, locale: 'en-US' });
    const publicPage = await visitor.newPage();
    await publicPage.goto(`/showcase?project_code=${project.project_code}`);
    await expect.poll(() => publicPage.getByTestId('showcase-missing').isVisible(), EVENTUALLY).toBe(true);

    const a = admin();
    await signIn(page, { username: a.username, password: a.password });
    await expectSignedInLayout(page);
    await page.getByRole('navigation', { name: /main|sidebar|menu/i }).getByRole('link', { name: 'Approvals' }).click();
    await page.waitForURL('**/approvals');
    // Other tests' projects are there too: find this one.
    await page.getByRole('searchbox', { name: 'Search' }).fill(project.name);
    const row = page.getByTestId('approval-row').filter({ hasText: project.name });
    await expect.poll(() => row.count(), EVENTUALLY).toBe(1);
    await saveScreenshot(page, 'projects--approvals');
    await row.getByRole('button', { name: `Validate ${project.name}` }).click();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Project validated.');
    // A validated project no longer awaits approval.
    await expect.poll(() => row.count(), EVENTUALLY).toBe(0);

    await publicPage.reload();
    await expect.poll(() => publicPage.getByTestId('showcase-project').textContent(), EVENTUALLY).toContain(project.name);
    const shown = (await publicPage.getByTestId('showcase-project').textContent()) ?? '';
    expect(shown).toContain('Four floors of offices by the sea.');
    // Nothing private: not the owner, not the street.
    expect(shown).not.toContain(owner.user.username);
    await saveScreenshot(publicPage, 'projects--showcase');

    // Deactivated, it leaves the showcase again.
    await page.getByRole('button', { name: 'All projects' }).click();
    const anyRow = page.getByTestId('approval-row').filter({ hasText: project.name });
    await anyRow.getByRole('button', { name: `Deactivate ${project.name}` }).click();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Project deactivated.');
    // Invalidating asks first, says it is done, and the row reads "Awaiting approval" again.
    await anyRow.getByRole('button', { name: `Invalidate ${project.name}` }).click();
    const ask = page.getByRole('dialog', { name: 'Invalidate the project?' });
    await expect.poll(() => ask.isVisible(), EVENTUALLY).toBe(true);
    await ask.getByTestId('confirm-button').click();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Project invalidated.');
    await expect.poll(() => anyRow.innerText(), EVENTUALLY).toContain('Awaiting approval');
    // On the project's page the real-time indicator is named as one, not as a status beside "Awaiting approval".
    await anyRow.getByRole('link', { name: project.name }).click();
    await expect.poll(() => page.getByTestId('live-badge').innerText(), EVENTUALLY).toContain('Live updates');
    await publicPage.reload();
    await expect.poll(() => publicPage.getByTestId('showcase-missing').isVisible(), EVENTUALLY).toBe(true);
    await visitor.close();
  });

  test('categories label projects: created on their page, picked in the form, used to filter; stars reach the dashboard', async ({ page }) => {
    const owner = await createUser();
    const a = await newProject(owner, { name: uniqueName('Alpha Clinic') });
    const b = await newProject(owner, { name: uniqueName('Beta School') });
    await signIn(page, { username: owner.user.username, password: owner.password });
    await expectSignedInLayout(page);

    // Two categories, made on the categories page; a blank name is refused with the spec's message.
    await page.goto('/categories');
    const newName = page.getByLabel('New category');
    await page.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => page.getByText('Category name is required').isVisible(), EVENTUALLY).toBe(true);
    for (const name of ['Healthcare', 'Education']) {
      await newName.fill(name);
      await page.getByRole('button', { name: 'Add' }).click();
      await expect.poll(() => page.getByTestId('name-row').filter({ hasText: name }).count(), EVENTUALLY).toBe(1);
    }
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Category created successfully!');

    // Pick one in the project's edit form: only the categories are sent.
    await page.goto(`/editproject/${a.id}`);
    await page.getByRole('checkbox', { name: 'Healthcare' }).check();
    const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/projects/${a.id}`));
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(Object.keys((await put).postDataJSON())).toEqual(['categories']);
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Project updated successfully!');

    // Filter the list by it, then star the other project and filter by stars.
    await page.goto('/projects');
    await expect.poll(() => page.getByTestId('project-card').count(), EVENTUALLY).toBe(2);
    await page.getByLabel('Category').selectOption({ label: 'Healthcare' });
    await expect.poll(() => page.getByTestId('project-card').allTextContents(), EVENTUALLY).toEqual([expect.stringContaining(a.name)]);
    expect(new URL(page.url()).search).toMatch(/category=\d+/);
    await page.getByLabel('Category').selectOption({ label: 'All categories' });
    await expect.poll(() => page.getByTestId('project-card').count(), EVENTUALLY).toBe(2);
    await page.getByRole('button', { name: `Star ${b.name}` }).click();
    await expect.poll(() => page.getByRole('button', { name: `Unstar ${b.name}` }).getAttribute('aria-pressed'), EVENTUALLY).toBe('true');
    await page.getByLabel('Starred only').check();
    await expect.poll(() => page.getByTestId('project-card').allTextContents(), EVENTUALLY).toEqual([expect.stringContaining(b.name)]);
    // A search that matches nothing says so and offers to clear the filters.
    await page.getByLabel('Search').fill('no such project anywhere');
    await expect.poll(() => page.getByTestId('projects-empty').textContent(), EVENTUALLY).toContain('No projects match these filters.');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.getByTestId('project-card').count(), EVENTUALLY).toBe(2);

    // The dashboard counts the projects and lists the starred one.
    await page.getByRole('navigation', { name: /main|sidebar|menu/i }).getByRole('link', { name: 'Dashboard' }).click();
    const widgets = page.getByTestId('projects-widgets');
    await expect.poll(() => widgets.getByTestId('projects-total').textContent(), EVENTUALLY).toBe('All projects (2)');
    expect(await widgets.getByRole('link', { name: b.name }).isVisible()).toBe(true);
    expect(await widgets.getByRole('link', { name: a.name }).count()).toBe(0);
    await saveScreenshot(page, 'projects--dashboard');
  });

  test('an administrator manages the project types every user picks from', async ({ page }) => {
    const a = admin();
    await signIn(page, { username: a.username, password: a.password });
    await expectSignedInLayout(page);
    await page.getByRole('navigation', { name: /main|sidebar|menu/i }).getByRole('link', { name: 'Project Types' }).click();
    await page.waitForURL('**/project-types');
    const typeName = uniqueName('Hospital');
    await page.getByLabel('New project type').fill(typeName);
    await page.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Project type created successfully!');
    const row = page.getByTestId('name-row').filter({ hasText: typeName });
    await row.getByRole('button', { name: `Rename ${typeName}` }).click();
    await page.getByLabel(`New name for ${typeName}`).fill(`${typeName} wing`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Project type updated successfully!');

    // Every user finds it in the project form.
    const owner = await createUser();
    const project = await newProject(owner);
    const other = await page.context().browser()!.newContext({ baseURL: new URL(page.url()).origin, locale: 'en-US' });
    const userPage = await other.newPage();
    await signIn(userPage, { username: owner.user.username, password: owner.password });
    await userPage.goto(`/editproject/${project.id}`);
    await expect.poll(() => userPage.getByLabel('Project type').locator('option').allTextContents(), EVENTUALLY).toContain(`${typeName} wing`);
    await other.close();

    await page.getByTestId('name-row').filter({ hasText: `${typeName} wing` }).getByRole('button', { name: `Delete ${typeName} wing` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Project type deleted successfully!');
    await expect.poll(() => page.getByTestId('name-row').filter({ hasText: typeName }).count(), EVENTUALLY).toBe(0);
  });

  test('a cover goes up with a progress bar and comes off after a confirmation; bad plans say why and leave no sheets', async ({ page }) => {
    const owner = await createUser();
    const project = await newProject(owner, { name: uniqueName('Cover Test') });
    await signIn(page, { username: owner.user.username, password: owner.password });
    await expectSignedInLayout(page);
    await page.goto(`/project/${project.id}`);
    await expect.poll(() => page.getByTestId('sheets-empty').isVisible(), EVENTUALLY).toBe(true);

    const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 180, g: 120, b: 60 } } }).jpeg().toBuffer();
    await page.getByLabel('Cover picture file').setInputFiles({ name: 'site.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Cover uploaded.');
    const cover = page.getByRole('img', { name: `Cover of ${project.name}` });
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), EVENTUALLY).toBe(true);
    await page.getByRole('button', { name: 'Delete cover' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('Cover removed.');
    expect(await cover.count()).toBe(0);

    // A file that only claims to be a PDF is refused by the server, in its words.
    await page.getByLabel('PDF plan file').setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('just some notes, not a plan\n'.repeat(20)) });
    await expect.poll(() => page.getByTestId('pdf-progress').getByRole('alert').textContent(), EVENTUALLY).toContain('This file is not a PDF.');

    // A plan set cut off in transit is refused at once, saying what happened and what to do.
    const whole = await planSet(2);
    await page.getByLabel('PDF plan file').setInputFiles({ name: 'cut.pdf', mimeType: 'application/pdf', buffer: whole.subarray(0, Math.floor(whole.length * 0.6)) });
    await expect.poll(() => page.getByTestId('pdf-progress').getByRole('alert').textContent(), EVENTUALLY).toContain('This PDF is incomplete');
    expect(await page.getByTestId('sheet-card').count()).toBe(0);
    await saveScreenshot(page, 'projects--pdf-failed');
  });

  test('a team member watching the project sees the sheets of a teammate’s upload arrive live', async ({ page }) => {
    const owner = await createUser();
    const member = await createUser();
    const project = await newProject(owner, { name: uniqueName('Shared Site') });
    await addMember(project.id, member, 'viewer');
    await signIn(page, { username: member.user.username, password: member.password });
    await expectSignedInLayout(page);
    await page.goto(`/project/${project.id}`);
    await expect.poll(() => page.getByTestId('sheets-empty').isVisible(), EVENTUALLY).toBe(true);
    // A viewer may look but not upload.
    expect(await page.getByRole('button', { name: 'Upload PDF plans' }).count()).toBe(0);
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    // The page follows the project live (it joined the project's room) before the owner uploads.
    await expect.poll(() => page.getByTestId('live-badge').isVisible(), EVENTUALLY).toBe(true);

    const res = await api().post(`/api/projects/${project.id}/pdf-sheet`).set(owner.auth).attach('file', await planSet(2), 'teammate.pdf');
    expect(res.status).toBe(202);
    await expect.poll(() => page.getByTestId('sheet-card').count(), { timeout: 90_000, interval: 200 }).toBe(2);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await expect.poll(() => page.getByTestId('pdf-done').textContent(), EVENTUALLY).toContain('teammate.pdf: 2 sheets made');
  });
});
