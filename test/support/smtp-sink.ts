import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { readMail, type ReadMail } from './mime.js';

export interface ReceivedMail {
  /** Counts up from 1 over the sink's life, also past a clear. */
  id: number;
  from: string;
  /** Recipients, lower-cased. */
  to: string[];
  /** The message as sent (headers and MIME body). */
  raw: string;
  receivedAt: string;
}

export interface SmtpSink {
  port: number;
  /** Everything received so far, oldest first. */
  mails: ReceivedMail[];
  /** Mails whose recipients include this address. */
  to(address: string): ReceivedMail[];
  /** Answers RCPT TO for this address with this SMTP error, `times` times (then accepts). */
  refuse(address: string, code: number, times?: number): void;
  /** Holds the answer to the next messages' DATA this long (a slow server). */
  delayData(ms: number): void;
  /** Resolves when a message's DATA starts arriving. */
  dataStarted(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A local SMTP server on loopback that accepts any login and keeps what it
 * receives in memory. Plain SMTP: the sink has no certificate a client would trust.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  let nextId = 1;
  const refusals = new Map<string, { code: number; left: number }>();
  let dataDelay = 0;
  let dataWaiters: (() => void)[] = [];

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, cb) => cb(null, { user: 'sink' }),
    onRcptTo(address, _session, cb) {
      const r = refusals.get(address.address.toLowerCase());
      if (r && r.left > 0) {
        r.left--;
        return cb(Object.assign(new Error(r.code >= 500 ? 'No such mailbox' : 'Try again later'), { responseCode: r.code }));
      }
      cb();
    },
    onData(stream, session, cb) {
      const waiters = dataWaiters;
      dataWaiters = [];
      waiters.forEach((w) => w());
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const accept = () => {
          mails.push({
            id: nextId++,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            raw: Buffer.concat(chunks).toString('utf8'),
            receivedAt: new Date().toISOString(),
          });
          cb();
        };
        if (dataDelay) setTimeout(accept, dataDelay);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    to: (address) => mails.filter((m) => m.to.includes(address.toLowerCase())),
    refuse: (address, code, times = Infinity) => refusals.set(address.toLowerCase(), { code, left: times }),
    delayData: (ms) => {
      dataDelay = ms;
    },
    dataStarted: () => new Promise<void>((resolve) => dataWaiters.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The settings that send through the sink. */
export const sinkSettings = (port: number) => ({
  smtp_server: '127.0.0.1',
  smtp_port: port,
  smtp_secure: 'none',
  smtp_auth: false,
  smtp_username: '',
  smtp_password: '',
  smtp_from_email: 'sitewalk@example.test',
  smtp_from_name: 'SiteWalk Test',
});

/** A mail as the mailbox endpoint lists it: decoded, without the raw message. */
export type SinkMail = Omit<ReceivedMail, 'raw'> & ReadMail;

export interface Mailbox {
  /** GET lists the sink's mails as JSON (SinkMail[]), DELETE forgets them. */
  url: string;
  close(): Promise<void>;
}

/**
 * A loopback HTTP endpoint onto a sink, for test processes other than the one
 * that runs it (the browser tests' sink lives in their global setup).
 */
export async function serveMailbox(sink: SmtpSink): Promise<Mailbox> {
  const server = http.createServer((req, res) => {
    if (req.method === 'DELETE') {
      sink.mails.length = 0;
      res.writeHead(204).end();
      return;
    }
    const list: SinkMail[] = sink.mails.map(({ raw, ...mail }) => ({ ...mail, ...readMail(raw) }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mails`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
