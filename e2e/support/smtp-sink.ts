import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseMail } from './mime.js';

/** A mail as the SMTP sink received it, decoded. */
export interface SinkMail {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

export interface SmtpSink {
  smtpPort: number;
  /** Loopback HTTP endpoint: GET lists the mails as JSON, DELETE forgets them. */
  mailboxUrl: string;
  close: () => Promise<void>;
}

/**
 * A local SMTP server that accepts every message (any login, no TLS) and
 * keeps it in memory, plus a tiny HTTP endpoint through which the test
 * processes read what arrived.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: SinkMail[] = [];
  let nextId = 1;

  const smtp = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: the sink has no certificate a client would trust.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, cb) => cb(null, { user: 'sink' }),
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const parsed = parseMail(Buffer.concat(chunks).toString('utf8'));
        mails.push({
          id: nextId++,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: parsed.subject,
          text: parsed.text,
          html: parsed.html,
          receivedAt: new Date().toISOString(),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(0, '127.0.0.1', () => resolve());
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const mailbox = http.createServer((req, res) => {
    if (req.method === 'DELETE') {
      mails.length = 0;
      res.writeHead(204).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(mails));
  });
  await new Promise<void>((resolve) => mailbox.listen(0, '127.0.0.1', resolve));
  const mailboxUrl = `http://127.0.0.1:${(mailbox.address() as AddressInfo).port}/mails`;

  return {
    smtpPort,
    mailboxUrl,
    close: async () => {
      await new Promise<void>((resolve) => mailbox.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
