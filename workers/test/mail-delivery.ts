import { afterAll, beforeAll } from 'vitest';
import type { QueueName, Settings } from '@sitewalk/proto';
import { lockSettings, type SettingsLock } from '../../api/test/settings-lock.js';
import { sinkSettings, startSmtpSink, type SmtpSink } from '../../test/support/smtp-sink.js';
import { handlers } from '../src/jobs/index.js';
import { startWorkers, type RunningWorkers } from '../src/runner.js';

export interface MailDelivery {
  /** Receives what the workers send. */
  sink: SmtpSink;
  /** Held for the whole file or block; set() changes more settings. */
  settings: SettingsLock;
}

/**
 * For a test file (or describe block) whose mail really goes out: an SMTP
 * sink, the settings locked and pointing at it (verified, plus `settings`),
 * and, when `queues` are named, workers serving them in this process.
 * Registers its own beforeAll/afterAll; read the fields inside tests.
 * Vitest runs afterAll hooks last-registered first, so register the file's
 * own connection teardown (closeQueues, closeDb...) before calling this.
 */
export function useMailDelivery(opts: { queues?: readonly QueueName[]; settings?: Partial<Settings> } = {}): MailDelivery {
  const delivery = {} as MailDelivery;
  let workers: RunningWorkers | undefined;

  // Long: lockSettings waits while another test file holds the settings.
  beforeAll(async () => {
    delivery.sink = await startSmtpSink();
    delivery.settings = await lockSettings();
    await delivery.settings.set({ ...sinkSettings(delivery.sink.port), smtp_valid: true, ...opts.settings });
    if (opts.queues) workers = startWorkers(handlers, { queues: opts.queues });
  }, 180_000);

  afterAll(async () => {
    await workers?.close();
    await delivery.settings?.release();
    await delivery.sink?.close();
  });

  return delivery;
}
