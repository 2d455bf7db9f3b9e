import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { Settings } from '@sitewalk/proto';

/** The SMTP part of the application settings (SPEC §3 "Mail server"). */
export type SmtpSettings = Pick<
  Settings,
  'smtp_server' | 'smtp_port' | 'smtp_secure' | 'smtp_auth' | 'smtp_username' | 'smtp_password' | 'smtp_from_email' | 'smtp_from_name' | 'name'
>;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files on local disk to attach (resolved from storage keys by the caller). */
  attachments?: { filename: string; path: string }[];
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  /** Connects, says hello and logs in when auth is on; throws with the server's reason when that fails. */
  verify(): Promise<void>;
  close(): void;
}

/** What is missing before the server can even be tried, in words for the administrator; null when complete. */
export function smtpSettingsProblem(s: SmtpSettings): string | null {
  if (!s.smtp_server.trim()) return 'No SMTP server is set.';
  if (!Number.isInteger(s.smtp_port) || s.smtp_port < 1 || s.smtp_port > 65_535) return `The SMTP port ${s.smtp_port} is not valid.`;
  if (s.smtp_auth && !s.smtp_username) return 'SMTP authentication is on but no user name is set.';
  if (!senderAddress(s)) return 'No sender address is set (smtp_from_email).';
  return null;
}

/** The From address: smtp_from_email, else the login name when it is an address. */
function senderAddress(s: SmtpSettings): string | null {
  if (s.smtp_from_email.trim()) return s.smtp_from_email.trim();
  return s.smtp_username.includes('@') ? s.smtp_username : null;
}

/**
 * nodemailer options for the settings. smtp_secure: 'ssl' is TLS from the
 * first byte (usually port 465); 'tls' requires STARTTLS (usually 587);
 * 'none' sends in clear, for a relay on a trusted network only.
 */
export function transportOptions(s: SmtpSettings): SMTPTransport.Options {
  const mode = s.smtp_secure.toLowerCase();
  return {
    host: s.smtp_server.trim(),
    port: s.smtp_port,
    secure: mode === 'ssl',
    requireTLS: mode === 'tls',
    ignoreTLS: mode === 'none' || mode === '',
    auth: s.smtp_auth ? { user: s.smtp_username, pass: s.smtp_password } : undefined,
    // A dead server must not hold a mail job for nodemailer's default of minutes.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 45_000,
  };
}

export function createMailer(s: SmtpSettings): Mailer {
  const transport = nodemailer.createTransport(transportOptions(s));
  const from = { name: s.smtp_from_name || s.name, address: senderAddress(s) ?? '' };
  return {
    async send(mail) {
      const info = await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, attachments: mail.attachments });
      return { messageId: info.messageId };
    },
    async verify() {
      await transport.verify();
    },
    close() {
      transport.close();
    },
  };
}

/**
 * Whether retrying cannot help: the server answered with a permanent (5xx)
 * refusal such as an unknown mailbox or rejected credentials. Connection
 * problems and 4xx answers are worth retrying.
 */
export function isPermanentSmtpError(err: unknown): boolean {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** One line for the administrator about why the server could not be used. */
export function describeSmtpError(err: unknown): string {
  const e = err as { code?: string; response?: string; message?: string };
  const msg = e.message ?? '';
  // nodemailer reports network failures as ESOCKET/ECONNECTION with the system error in the message.
  const has = (code: string) => e.code === code || msg.includes(code);
  if (e.code === 'EAUTH') return `The SMTP server refused the user name or password${e.response ? ` (${e.response})` : ''}.`;
  if (has('ECONNREFUSED')) return 'The SMTP server refused the connection: check the server name and port.';
  if (has('ENOTFOUND') || has('EAI_AGAIN') || e.code === 'EDNS') return 'The SMTP server name could not be found.';
  if (has('ETIMEDOUT') || e.code === 'ETIMEOUT') return 'The SMTP server did not answer in time: check the server name, the port and the firewall.';
  if (e.code === 'ETLS' || e.code === 'ESOCKET') return `The secure connection to the SMTP server failed: check the security mode (tls, ssl or none). ${msg}`.trim();
  return e.response ?? (msg || 'The SMTP server could not be used.');
}
