import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JobOf } from '@sitewalk/proto';
import { closeDb, db } from '@sitewalk/core/db';
import { closeQueues, queue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeRedis } from '@sitewalk/core/redis.js';
import { exists, withLocalFile } from '@sitewalk/core/storage';
import { checkout, creditNoteIn, markPaid } from '@sitewalk/core/services/billing.service.js';
import { saveCompany } from '@sitewalk/core/services/company.service.js';
import { createUser, type TestUser } from '../../api/test/helpers.js';
import { lockSettings, type SettingsLock } from '../../api/test/settings-lock.js';
import { enableBilling, sellablePlan } from '../../api/test/billing-helpers.js';
import { handlers } from '../src/jobs/index.js';
import { startWorkers, type RunningWorkers } from '../src/runner.js';
import { runTs, type Child } from './child-process.js';
import { settled, useOwnRedisPrefix, waitFor } from './helpers.js';
import { openMailJob } from '@sitewalk/core/mail/sealed-mail.js';

useOwnRedisPrefix('invoices');

let lock: SettingsLock;
let admin: TestUser;
let planId: number;
let workers: RunningWorkers | null = null;
let child: Child | null = null;

beforeAll(async () => {
  lock = await lockSettings();
  await enableBilling(lock);
  admin = await createUser({ super_admin: true });
  planId = (await sellablePlan(admin)).id;
});
afterEach(async () => {
  child?.proc.kill('SIGKILL');
  child = null;
  await workers?.close();
  workers = null;
});
afterAll(async () => {
  await lock?.release();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});

const actor = (u: TestUser) => ({ id: u.user.id, super_admin: !!u.user.super_admin });

/** A buyer with a company, a bank-transfer invoice for them, marked paid by the admin. */
async function paidInvoice(language = 'en') {
  const buyer = await createUser({ language } as never);
  await saveCompany(buyer.user.id, { name: 'Acme Build GmbH', tax_id: 'DE123456789', street: 'Main St 5', city: 'Berlin', postal_code: '10115', country: 'Germany' });
  const { invoice } = await checkout(actor(buyer), { id_plan: planId, period: 'month', method: 'bank_transfer' });
  const paid = await markPaid(actor(admin), invoice.id);
  return { buyer, paid };
}

async function mailsTo(email: string) {
  const jobs = await queue('mail').getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'paused']);
  return jobs.filter((j) => j && (j.data as JobOf<'mail.send'>).to === email).map((j) => openMailJob(j.data as JobOf<'mail.send'>));
}

// Through a local copy, so it reads the stored PDF on either storage driver.
const pdfText = (key: string) => withLocalFile(key, async (file) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }));

describe('invoice.generate', () => {
  it('writes a PDF holding the number, buyer, tax id and totals, and mails it once with the PDF attached', async () => {
    const { buyer, paid } = await paidInvoice();
    workers = startWorkers(handlers, { queues: ['invoices'] });
    const job = (await queue('invoices').getJob(`invoice-${paid.id}-paid`))!;
    expect((await settled(job)).state).toBe('completed');
    const row = await db()('invoices').where({ id: paid.id }).first();
    expect(row).toMatchObject({ status: 'paid', pdf_status: 'paid' });
    expect(row.pdf_key).toMatch(new RegExp(`^invoices/${buyer.user.id}/[0-9a-f-]{36}\\.pdf$`));
    const text = await pdfText(row.pdf_key);
    for (const s of [paid.number!, 'Acme Build GmbH', 'DE123456789', 'SiteWalk Ltd', 'JO-TAX-778', '49.90 EUR', '9.48 EUR', '59.38 EUR', 'Tax (19%)']) expect(text).toContain(s);

    const mails = (await mailsTo(buyer.user.email)).filter((m) => m.reason === 'invoice');
    expect(mails.map((m) => m.subject)).toEqual(expect.arrayContaining([expect.stringContaining(`Invoice ${paid.number}`)]));
    const invoiceMail = mails.find((m) => m.subject.includes(`Invoice ${paid.number}`))!;
    expect(invoiceMail.attachments).toEqual([{ filename: `invoice-${paid.number}.pdf`, key: row.pdf_key }]);

    // Run again: the same file, no second mail.
    await handlers['invoice.generate']!({ id_invoice: paid.id }, { ...job, id: 'again', name: 'invoice.generate', timestamp: Date.now() } as never);
    expect((await db()('invoices').where({ id: paid.id }).first()).pdf_key).toBe(row.pdf_key);
    expect((await mailsTo(buyer.user.email)).filter((m) => m.subject.includes(`Invoice ${paid.number}`))).toHaveLength(1);
  });

  it('after a refund, marks the voided invoice Void in a new PDF and draws the credit note, mailing only the credit note', async () => {
    const { buyer, paid } = await paidInvoice();
    const run = (id: number, status: string) => handlers['invoice.generate']!({ id_invoice: id }, { id: `invoice-${id}-${status}`, name: 'invoice.generate', timestamp: Date.now() } as never);
    await run(paid.id, 'paid');
    const noteId = (await db().transaction((trx) => creditNoteIn(trx, paid.id)))!;
    await run(paid.id, 'void');
    await run(noteId, 'paid');
    const voided = await db()('invoices').where({ id: paid.id }).first();
    expect(voided).toMatchObject({ status: 'void', pdf_status: 'void' });
    expect(await pdfText(voided.pdf_key)).toContain('Void');
    const note = await db()('invoices').where({ id: noteId }).first();
    const noteText = await pdfText(note.pdf_key);
    for (const s of ['Credit note', note.number, paid.number!, '-59.38 EUR']) expect(noteText).toContain(s);
    const subjects = (await mailsTo(buyer.user.email)).map((m) => m.subject);
    expect(subjects.filter((s) => s.startsWith(`Credit note ${note.number}`))).toHaveLength(1);
    expect(subjects.filter((s) => s.includes(`Invoice ${paid.number}`))).toHaveLength(1);
  });

  it('lays an Arabic invoice out and keeps every figure', async () => {
    const { paid } = await paidInvoice('ar');
    await handlers['invoice.generate']!({ id_invoice: paid.id }, { id: `ar-${paid.id}`, name: 'invoice.generate', timestamp: Date.now() } as never);
    const row = await db()('invoices').where({ id: paid.id }).first();
    const text = await pdfText(row.pdf_key);
    for (const s of [paid.number!, 'Acme Build GmbH', 'DE123456789', '59.38 EUR']) expect(text).toContain(s);
  });

  for (const point of ['before', 'after'] as const) {
    it(`killed ${point} writing the PDF leaves no half invoice, and the retry makes exactly one PDF and one mail`, async () => {
      // Only this test's jobs wait on the queue, so the crashing worker takes ours.
      await queue('invoices').drain(true);
      const { buyer, paid } = await paidInvoice();
      const job = (await queue('invoices').getJob(`invoice-${paid.id}-paid`))!;
      child = runTs('workers/test/fixtures/invoice-crash-worker.ts', { WORKER_LOCK_MS: '1000', WORKER_STALLED_MS: '300', CRASH_POINT: point });
      await child.line(/^READY$/m);
      await child.line(new RegExp(`^HOLDING invoice-${paid.id}-paid$`, 'm'));
      child.proc.kill('SIGKILL');
      await child.exited;
      // The invoice itself was whole before the job started: its number and payment do not move.
      const before = await db()('invoices').where({ id: paid.id }).first();
      expect(before).toMatchObject({ status: 'paid', number: paid.number });

      workers = startWorkers(handlers, { queues: ['invoices'], lockMs: 30_000, stalledMs: 300 });
      expect((await settled(job, 30_000)).state).toBe('completed');
      const after = await db()('invoices').where({ id: paid.id }).first();
      expect(after).toMatchObject({ number: paid.number, pdf_status: 'paid' });
      expect(await exists(after.pdf_key)).toBe(true);
      if (point === 'after') expect(after.pdf_key).toBe(before.pdf_key);
      expect(await db()('invoices').where({ id_user: buyer.user.id })).toHaveLength(1);
      expect(await db()('payments').where({ id_invoice: paid.id })).toHaveLength(1);
      await waitFor(async () => (await mailsTo(buyer.user.email)).some((m) => m.subject.includes(`Invoice ${paid.number}`)), 'the invoice mail');
      expect((await mailsTo(buyer.user.email)).filter((m) => m.subject.includes(`Invoice ${paid.number}`))).toHaveLength(1);
    }, 120_000);
  }
});
