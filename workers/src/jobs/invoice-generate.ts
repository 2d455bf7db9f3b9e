import { PassThrough } from 'node:stream';
import { formatMoney } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { newKey, putStream, remove } from '@sitewalk/core/storage';
import { enqueue } from '@sitewalk/core/queue/index.js';
import { logger } from '@sitewalk/core/logger.js';
import { getSettings } from '@sitewalk/core/services/settings.service.js';
import { bankDetails, invoiceDto, tellInvoiceChanged } from '@sitewalk/core/services/billing.service.js';
import { invoiceNumber, invoiceRowById, linkInvoicePdf } from '@sitewalk/core/repositories/invoices.repository.js';
import { userColumns } from '@sitewalk/core/repositories/users.repository.js';
import { writeInvoicePdf, type InvoiceLanguage } from '../exports/invoice-pdf.js';
import type { Handler } from '../registry.js';

/**
 * invoice.generate: writes the PDF of an invoice as it stands (pending with
 * the bank details, paid with its number, a credit note) under a new
 * server-chosen key, then mails it. The invoice row and its number were
 * made by the payment's transaction, so a worker killed here leaves no half
 * invoice: at worst a PDF file not yet linked, which the retry replaces.
 * The key is set only if the row still has no PDF of this status, and the
 * mail's job id names the invoice and status: running again does nothing twice.
 */
export const invoiceGenerate: Handler<'invoice.generate'> = async ({ id_invoice }, job) => {
  const row = await invoiceRowById(db(), id_invoice);
  if (!row) return { status: 'skipped', reason: 'the invoice was deleted' };
  const log = logger.child({ job: job.name, invoice: id_invoice });
  // Independent reads at once: each is a round trip, and the drawing waits for all of them.
  const [settings, user, credited] = await Promise.all([
    getSettings(),
    userColumns(db(), row.id_user, 'email', 'language'),
    row.id_credited ? invoiceNumber(db(), row.id_credited) : null,
  ]);
  const lang: InvoiceLanguage = user?.language === 'ar' ? 'ar' : 'en';
  const status = row.status;
  let key = row.pdf_status === status ? row.pdf_key : null;
  if (!key) {
    const bank = bankDetails(settings);
    const fresh = newKey(`invoices/${row.id_user}`, '.pdf');
    // Drawn straight into storage under a new key (a half-written file is never at that key: the
    // driver writes beside it and renames, or aborts the upload), so nothing is linked until it is whole.
    const pdf = new PassThrough();
    try {
      await Promise.all([writeInvoicePdf(invoiceDto(row), { lang, bank, creditedNumber: credited ?? null }, pdf), putStream(fresh, pdf)]);
    } catch (err) {
      // A drawing that failed ends the upload too (its partial file goes), and the job's retry starts afresh.
      pdf.destroy(err as Error);
      await remove(fresh).catch(() => undefined);
      throw err;
    }
    // Only if no other run linked a PDF of this status meanwhile, and the invoice did not change.
    const linked = await linkInvoicePdf(db(), id_invoice, status, fresh);
    if (!linked) {
      await remove(fresh);
      const now = await invoiceRowById(db(), id_invoice);
      if (!now || now.status !== status) return { status: 'skipped', reason: 'the invoice changed meanwhile' };
      key = now.pdf_key;
    } else {
      if (row.pdf_key) await remove(row.pdf_key);
      key = fresh;
      log.info({ status }, 'invoice PDF written');
    }
  }
  tellInvoiceChanged(row.id_user, row.id, status);
  const to = row.buyer.email || user?.email;
  const mailable = (status === 'paid' && row.number) || (status === 'pending' && row.method === 'bank_transfer');
  if (to && key && mailable) {
    const name = row.kind === 'credit_note' ? 'Credit note' : status === 'paid' ? 'Invoice' : 'Payment request';
    const ident = row.number ?? row.reference;
    const total = formatMoney(row.total_minor, row.currency);
    const bank = bankDetails(settings);
    const lines =
      status === 'paid'
        ? [`Hello,`, '', `${name} ${ident} for "${row.plan_name}" (${total}) is attached.`, row.kind === 'invoice' ? `Your plan runs until ${row.period_end}.` : '', '', settings.name]
        : [
            'Hello,',
            '',
            `To pay for "${row.plan_name}" (${total}), please make a bank transfer with the payment reference ${row.reference}:`,
            ...(bank ? [`Bank: ${bank.bank_name}`, `Account name: ${bank.bank_account_name}`, `Account number: ${bank.bank_account_number}`, `IBAN: ${bank.bank_iban}`, `SWIFT/BIC: ${bank.bank_swift_bic}`, `Bank address: ${bank.bank_address}`] : []),
            '',
            'Your plan is extended as soon as the payment arrives.',
            '',
            settings.name,
          ];
    const text = lines.filter((l, i) => l !== '' || lines[i - 1] !== '').join('\n');
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    await enqueue(
      'mail.send',
      { to, subject: `${name} ${ident} — ${settings.name}`, text, html: text.split('\n\n').map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`).join(''), reason: 'invoice', attachments: [{ filename: `${name.toLowerCase().replace(/ /g, '-')}-${ident}.pdf`, key }] },
      { jobId: `mail-invoice-${row.id}-${status}` },
    );
  }
  return { status: 'done', pdf_key: key };
};
