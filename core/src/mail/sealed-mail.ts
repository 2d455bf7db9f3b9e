import type { JobOf } from '@sitewalk/proto';
import { config } from '../config.js';
import { cryptoBox, type CryptoBox } from '../crypto-box.js';
import { appSecret } from '../secrets.js';
import type { MailContent } from './templates.js';

let box: CryptoBox | null = null;
/** Same key material as the secret settings, its own derived key: the API seals, the workers open. */
const mailBox = () => (box ??= cryptoBox(config.settingsKey || appSecret(), 'mail'));

/**
 * The mail.send payload for a mail. The subject and bodies travel sealed
 * (AES-256-GCM): a reset or invitation link must never sit in clear in
 * Redis, where a finished job stays for a day and the queue monitor shows
 * its data. Only the address and the reason stay readable, for the logs.
 */
export function sealedMailJob(to: string, content: MailContent, reason: string): JobOf<'mail.send'> {
  return { to, reason, sealed: mailBox().seal(JSON.stringify({ subject: content.subject, text: content.text, html: content.html }), to) };
}

/**
 * The mail a mail.send payload carries, opened; a payload from before sealing
 * reads as it is. Attachments stay in clear: they are storage keys the server
 * chose (an invoice PDF), nothing secret.
 */
export function openMailJob(data: JobOf<'mail.send'>): { to: string; reason: string; attachments?: JobOf<'mail.send'>['attachments'] } & MailContent {
  const attachments = data.attachments;
  if (data.sealed) {
    const c = JSON.parse(mailBox().open(data.sealed, data.to)) as MailContent;
    return { to: data.to, reason: data.reason, subject: c.subject, text: c.text, html: c.html, attachments };
  }
  return { to: data.to, reason: data.reason, subject: data.subject ?? '', text: data.text ?? '', html: data.html ?? '', attachments };
}
