import PDFDocument from 'pdfkit';
import { finished } from 'node:stream/promises';
import { formatMoney, type BankDetails, type Invoice } from '@sitewalk/proto';
import { REPORT_FONTS, isRtl } from './pdf-report.js';

/**
 * An invoice or credit note as a one-page A4 PDF, with the snag report's
 * tools: pdfkit, DejaVu Sans (Latin and Arabic, shaped by fontkit). In
 * Arabic the layout is mirrored: labels and parties run from the right.
 */

export type InvoiceLanguage = 'en' | 'ar';

const WORDS: Record<InvoiceLanguage, Record<string, string>> = {
  en: {
    invoice: 'Invoice',
    credit_note: 'Credit note',
    proforma: 'Payment request',
    number: 'Number',
    reference: 'Payment reference',
    date: 'Date',
    paid: 'Paid',
    status: 'Status',
    pending: 'Pending',
    void: 'Void',
    seller: 'From',
    buyer: 'Bill to',
    tax_id: 'Tax id',
    description: 'Description',
    amount: 'Amount',
    subtotal: 'Subtotal',
    tax: 'Tax',
    total: 'Total',
    method: 'Paid by',
    paypal: 'PayPal',
    bank_transfer: 'Bank transfer',
    bank: 'Please pay by bank transfer to',
    bank_name: 'Bank',
    bank_account_name: 'Account name',
    bank_account_number: 'Account number',
    bank_iban: 'IBAN',
    bank_swift_bic: 'SWIFT/BIC',
    bank_address: 'Bank address',
    credits: 'Credits invoice',
  },
  ar: {
    invoice: 'فاتورة',
    credit_note: 'إشعار دائن',
    proforma: 'طلب دفع',
    number: 'الرقم',
    reference: 'مرجع الدفع',
    date: 'التاريخ',
    paid: 'مدفوعة',
    status: 'الحالة',
    pending: 'قيد الانتظار',
    void: 'ملغاة',
    seller: 'من',
    buyer: 'إلى',
    tax_id: 'الرقم الضريبي',
    description: 'الوصف',
    amount: 'المبلغ',
    subtotal: 'المجموع الفرعي',
    tax: 'الضريبة',
    total: 'الإجمالي',
    method: 'طريقة الدفع',
    paypal: 'PayPal',
    bank_transfer: 'تحويل بنكي',
    bank: 'يرجى الدفع بتحويل بنكي إلى',
    bank_name: 'البنك',
    bank_account_name: 'اسم الحساب',
    bank_account_number: 'رقم الحساب',
    bank_iban: 'IBAN',
    bank_swift_bic: 'SWIFT/BIC',
    bank_address: 'عنوان البنك',
    credits: 'يلغي الفاتورة',
  },
};

export interface InvoicePdfOptions {
  lang: InvoiceLanguage;
  /** Shown on a pending bank-transfer invoice. */
  bank?: BankDetails | null;
  /** The number of the invoice a credit note voids. */
  creditedNumber?: string | null;
}

type Doc = PDFKit.PDFDocument;
const M = 50;
const W = 595.28 - 2 * M;

/** Writes the PDF into `out`; resolves when it is all written. */
export async function writeInvoicePdf(inv: Invoice, opts: InvoicePdfOptions, out: NodeJS.WritableStream): Promise<void> {
  const t = WORDS[opts.lang];
  const rtl = opts.lang === 'ar';
  const title = inv.kind === 'credit_note' ? t.credit_note : inv.status === 'pending' ? t.proforma : t.invoice;
  const doc = new PDFDocument({ size: 'A4', margin: M, info: { Title: `${title} ${inv.number ?? inv.reference}`, Creator: 'SiteWalk' } });
  doc.registerFont('regular', REPORT_FONTS.regular);
  doc.registerFont('bold', REPORT_FONTS.bold);
  const written = finished(doc.pipe(out));
  // Text in its own direction; the block's side follows the document's direction.
  const line = (text: string, x: number, y: number, width: number, o: { bold?: boolean; size?: number; align?: 'left' | 'right' } = {}) => {
    doc.font(o.bold ? 'bold' : 'regular').fontSize(o.size ?? 10);
    const align = o.align ?? (rtl || isRtl(text) ? 'right' : 'left');
    doc.text(text, x, y, { width, align, lineBreak: false, ...(isRtl(text) ? { wordSpacing: 0.001 } : {}) });
    return y + (o.size ?? 10) * 1.45;
  };
  const start = (col: 0 | 1, half = W / 2 - 10) => (rtl ? (col === 0 ? M + W - half : M) : col === 0 ? M : M + W - half);

  let y = M;
  line(title, M, y, W, { bold: true, size: 22 });
  y += 36;
  const meta: [string, string][] = [
    ...(inv.number ? ([[t.number, inv.number]] as [string, string][]) : []),
    [t.reference, inv.reference],
    [t.date, (inv.paid_at ?? inv.created_at).slice(0, 10)],
    [t.status, t[inv.status]],
    ...(inv.status === 'paid' ? ([[t.method, t[inv.method]]] as [string, string][]) : []),
    ...(opts.creditedNumber ? ([[t.credits, opts.creditedNumber]] as [string, string][]) : []),
  ];
  for (const [k, v] of meta) y = line(`${k}: ${v}`, M, y, W);
  y += 14;

  const partyTop = y;
  const party = (col: 0 | 1, label: string, p: Invoice['buyer']) => {
    let py = partyTop;
    const x = start(col);
    py = line(label, x, py, W / 2 - 10, { bold: true });
    py = line(p.name, x, py, W / 2 - 10, { bold: true, size: 11 });
    for (const a of p.address) py = line(a, x, py, W / 2 - 10);
    if (p.tax_id) py = line(`${t.tax_id}: ${p.tax_id}`, x, py, W / 2 - 10);
    if (p.email) py = line(p.email, x, py, W / 2 - 10);
    return py;
  };
  y = Math.max(party(0, t.seller, inv.seller), party(1, t.buyer, inv.buyer)) + 20;

  // The lines: description and amount columns, swapped in Arabic.
  const amountW = 120;
  const descX = rtl ? M + amountW : M;
  const amountX = rtl ? M : M + W - amountW;
  doc.moveTo(M, y).lineTo(M + W, y).strokeColor('#999999').stroke();
  y += 6;
  line(t.description, descX, y, W - amountW, { bold: true });
  line(t.amount, amountX, y, amountW, { bold: true, align: rtl ? 'left' : 'right' });
  y += 18;
  for (const l of inv.lines) {
    line(l.description, descX, y, W - amountW);
    line(formatMoney(l.amount_minor, inv.currency), amountX, y, amountW, { align: rtl ? 'left' : 'right' });
    y += 18;
  }
  doc.moveTo(M, y).lineTo(M + W, y).strokeColor('#999999').stroke();
  y += 8;
  const sum = (label: string, minor: number, bold = false) => {
    line(label, descX, y, W - amountW, { bold, align: rtl ? 'left' : 'right' });
    line(formatMoney(minor, inv.currency), amountX, y, amountW, { bold, align: rtl ? 'left' : 'right' });
    y += 16;
  };
  sum(t.subtotal, inv.subtotal_minor);
  sum(`${t.tax} (${(inv.tax_rate_bp / 100).toFixed(2).replace(/\.?0+$/, '')}%)`, inv.tax_minor);
  sum(t.total, inv.total_minor, true);

  if (inv.status === 'pending' && inv.method === 'bank_transfer' && opts.bank) {
    y += 20;
    y = line(t.bank, M, y, W, { bold: true });
    const b = opts.bank;
    for (const k of ['bank_name', 'bank_account_name', 'bank_account_number', 'bank_iban', 'bank_swift_bic', 'bank_address'] as const) {
      if (b[k]) y = line(`${t[k]}: ${b[k]}`, M, y, W);
    }
    y = line(`${t.reference}: ${inv.reference}`, M, y, W, { bold: true });
  }
  doc.end();
  await written;
}
