import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent (headers and MIME body). */
  raw: string;
}

export interface SmtpSink {
  port: number;
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

/** A local SMTP server (plain SMTP on loopback, any login) that keeps what it receives. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const refusals = new Map<string, { code: number; left: number }>();
  let dataDelay = 0;
  let dataWaiters: (() => void)[] = [];

  const options: SMTPServerOptions = {
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
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          cb();
        };
        if (dataDelay) setTimeout(accept, dataDelay);
        else accept();
      });
    },
  };
  const server = new SMTPServer(options);
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
