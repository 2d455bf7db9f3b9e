/**
 * Invoice PDFs (a measurement, not a test): N paid invoices made into PDFs by
 * the invoice.generate worker — through BullMQ on its own queue, reading the
 * invoice from PostgreSQL, drawing it with pdfkit, storing it under a new
 * key, linking it to the row and queueing its mail — set side by side in the
 * same run with pdfkit alone drawing the same documents to files, at the
 * same concurrency (the job's own). Gives the ratio of the whole runs
 * (goal ≤ 1.2×), p50/p99 per invoice, and the peak RSS of this process
 * during each run for N/10 and N invoices, so a growth with the count would
 * show. Appends a dated section with the machine to bench/RESULTS.md.
 *
 *   npx tsx bench/invoices-bench.ts           (INVOICE_BENCH_COUNT, default 1000)
 *
 * Own database (sitewalk_invoices_bench, recreated), Redis prefix and data folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchEnv } from './bench-env.js';
import { loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const COUNT = Number(process.env.INVOICE_BENCH_COUNT ?? 1000);

benchEnv({ database: 'sitewalk_invoices_bench', redisPrefix: 'sitewalk-invoices-bench', dataDir: '.data/invoices-bench' });

const { ensureDatabase } = await import('../api/src/cli/ensure-database.js');
await ensureDatabase(process.env.DATABASE_URL!, { recreate: true });
const { db, closeDb, migrateLatest } = await import('@sitewalk/core/db');
await migrateLatest();
const { closeQueues, queue } = await import('@sitewalk/core/queue');
const { closeEmitter } = await import('@sitewalk/core/realtime');
const { closeRedis } = await import('@sitewalk/core/redis.js');
const { saveSettings } = await import('@sitewalk/core/services/settings.service.js');
const { saveCompany } = await import('@sitewalk/core/services/company.service.js');
const { invoiceDto } = await import('@sitewalk/core/services/billing.service.js');
const { invoiceRowById } = await import('@sitewalk/core/repositories/invoices.repository.js');
const { JOB_POLICIES, formatInvoiceNumber } = await import('@sitewalk/proto');
/** The job's own concurrency, used for both sides. */
const CONCURRENCY = JOB_POLICIES['invoice.generate'].concurrency;
const { handlers } = await import('../workers/src/jobs/index.js');
const { startWorkers } = await import('../workers/src/runner.js');
const { writeInvoicePdf } = await import('../workers/src/exports/invoice-pdf.js');

await saveSettings({ invoice_seller_name: 'SiteWalk Ltd', invoice_seller_address: 'Rainbow Street 1\nAmman', invoice_seller_tax_id: 'JO-TAX-778', tax_rate: 19 });
await queue('invoices').obliterate({ force: true });
await queue('mail').obliterate({ force: true });

const [{ id: userId }] = await db()('users').insert({ username: 'bench_buyer', email: 'buyer@bench.test', password_hash: 'x', active: true, first_name: 'Bench', last_name: 'Buyer' }).returning('id');
await saveCompany(userId, { name: 'Acme Build GmbH', tax_id: 'DE123456789', street: 'Main St 5', city: 'Berlin', postal_code: '10115', country: 'Germany' });

let seq = 0;
/** `n` paid invoices straight in the table: the bench measures the PDFs, not the payments. */
async function makeInvoices(n: number): Promise<number[]> {
  const year = new Date().getUTCFullYear();
  const rows = Array.from({ length: n }, () => {
    seq++;
    return {
      id_user: userId,
      kind: 'invoice',
      number: formatInvoiceNumber(year, seq),
      status: 'paid',
      method: 'paypal',
      reference: `SW-BENCH${String(seq).padStart(7, '0')}`,
      plan_name: 'Team Pro',
      period: 'month',
      period_start: '2026-11-28',
      period_end: '2026-12-28',
      currency: 'EUR',
      subtotal_minor: 4990,
      tax_rate_bp: 1900,
      tax_minor: 948,
      total_minor: 5938,
      seller: JSON.stringify({ name: 'SiteWalk Ltd', tax_id: 'JO-TAX-778', address: ['Rainbow Street 1', 'Amman'], email: 'billing@sitewalk.test' }),
      buyer: JSON.stringify({ name: 'Acme Build GmbH', tax_id: 'DE123456789', address: ['Main St 5', '10115 Berlin', 'Germany'], email: 'buyer@bench.test' }),
      lines: JSON.stringify([{ description: 'Team Pro (monthly), 2026-11-28 – 2026-12-28', quantity: 1, unit_minor: 4990, amount_minor: 4990 }]),
      paid_at: new Date(),
    };
  });
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 500) ids.push(...(await db()('invoices').insert(rows.slice(i, i + 500)).returning('id')).map((r: { id: number }) => r.id));
  return ids;
}

/** Samples this process's RSS every 20 ms while `fn` runs; returns its result, the peak in MB and this process's CPU time in ms. */
async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peakMb: number; cpuMs: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const cpu0 = process.cpuUsage();
  try {
    const value = await fn();
    const cpu = process.cpuUsage(cpu0);
    return { value, peakMb: Math.round(Math.max(peak, process.memoryUsage().rss) / 1048576), cpuMs: (cpu.user + cpu.system) / 1000 };
  } finally {
    clearInterval(timer);
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** pdfkit alone: the same documents, drawn to files, CONCURRENCY at a time. */
async function reference(ids: number[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'invoice-bench-'));
  const docs = await Promise.all(ids.map(async (id) => invoiceDto((await invoiceRowById(db(), id))!)));
  const times: number[] = [];
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < docs.length) {
        const d = docs[next++];
        const t0 = performance.now();
        await writeInvoicePdf(d, { lang: 'en' }, fs.createWriteStream(path.join(dir, `${d.id}.pdf`)));
        times.push(performance.now() - t0);
      }
    }),
  );
  const wall = performance.now() - start;
  fs.rmSync(dir, { recursive: true, force: true });
  return { wall, times };
}

/** The worker: N invoice.generate jobs through BullMQ, all done. */
async function worker(ids: number[]) {
  const running = startWorkers(handlers, { queues: ['invoices'] });
  await Promise.all(running.workers.map((w) => w.waitUntilReady()));
  const q = queue('invoices');
  const start = performance.now();
  await q.addBulk(ids.map((id) => ({ name: 'invoice.generate', data: { id_invoice: id }, opts: { jobId: `bench-${id}`, removeOnComplete: false } })));
  for (;;) {
    const c = await q.getJobCounts('completed', 'failed');
    if (c.completed + c.failed >= ids.length) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const wall = performance.now() - start;
  const jobs = await q.getJobs(['completed'], 0, -1);
  const times = jobs.filter((j) => j.finishedOn && j.processedOn).map((j) => j.finishedOn! - j.processedOn!);
  const failed = (await q.getJobCounts('failed')).failed;
  await running.close();
  await q.obliterate({ force: true });
  return { wall, times, failed };
}

const lines: string[] = [];
const summary: string[] = [];
for (const n of [Math.max(10, Math.round(COUNT / 10)), COUNT]) {
  const refIds = await makeInvoices(n);
  const ids = await makeInvoices(n);
  // A warm-up of both paths (fonts, pdfkit, the first queries) outside the measured runs.
  await reference(refIds.slice(0, 5));
  // pdfkit alone before and after the worker, so a shared machine's load that changes during the run weighs on both sides.
  const half = Math.floor(n / 2);
  const refA = await withPeakRss(() => reference(refIds.slice(0, half)));
  const work = await withPeakRss(() => worker(ids));
  const refB = await withPeakRss(() => reference(refIds.slice(half)));
  const ref = { wall: refA.value.wall + refB.value.wall, times: [...refA.value.times, ...refB.value.times], peakMb: Math.max(refA.peakMb, refB.peakMb), cpuMs: refA.cpuMs + refB.cpuMs };
  const ratio = work.value.wall / ref.wall;
  const linked = Number((await db()('invoices').whereIn('id', ids).whereNotNull('pdf_key').count<{ n: string }[]>({ n: '*' }))[0].n);
  const line =
    `| ${n} | ${(work.value.wall / 1000).toFixed(2)} s | ${(ref.wall / 1000).toFixed(2)} s | **${ratio.toFixed(2)}×** | ` +
    `${pct(work.value.times, 50)} / ${pct(work.value.times, 99)} ms | ${pct(ref.times, 50).toFixed(1)} / ${pct(ref.times, 99).toFixed(1)} ms | ` +
    `${(work.cpuMs / n).toFixed(1)} / ${(ref.cpuMs / n).toFixed(1)} ms | ${work.peakMb} MB | ${ref.peakMb} MB | ${linked}/${n} linked, ${work.value.failed} failed |`;
  console.log(line);
  lines.push(line);
  summary.push(`${n}: ${ratio.toFixed(2)}×`);
}

appendResults(
  [
    `## Invoice PDFs — ${runDate()}`,
    '',
    `${machine()}; load average ${loadAverage()} at the end (1, 5, 15 min; the machine may be shared and busy: the ratio, taken within one run, is what counts). The invoice.generate worker (BullMQ queue \`invoices\`, concurrency ${CONCURRENCY}: read the invoice, draw it with pdfkit, store it, link it, queue its mail) against pdfkit alone drawing the same documents to files, ${CONCURRENCY} at a time, in the same process, half before and half after the worker. CPU is this process's (PostgreSQL and Redis not included). Goal: ratio ≤ 1.2×; peak memory flat with the count.`,
    '',
    '| invoices | worker | pdfkit alone | ratio | worker p50 / p99 per invoice | pdfkit p50 / p99 | CPU per invoice, worker / pdfkit | worker peak RSS | pdfkit peak RSS | check |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...lines,
  ].join('\n'),
);
console.log(summary.join(', '));
await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
await closeDb();
