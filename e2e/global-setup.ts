import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { freePort } from '../test/support/free-port.js';
import { serveMailbox, sinkSettings, startSmtpSink } from '../test/support/smtp-sink.js';
import type { E2eAdmin } from './support/provided.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = '/usr/bin/chromium';

function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return;
  console.log('[e2e] Chromium is missing: installing the Debian package');
  execFileSync('bash', [path.join(ROOT, 'scripts/install-system-deps.sh'), 'test'], { stdio: 'inherit' });
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is still missing: install the Debian package "chromium".`);
}

/**
 * Builds the client once for the run. E2E_CLIENT_DIST names an existing build
 * to reuse instead (handy while writing tests; `make test` always builds).
 */
function buildClient(outDir: string): void {
  if (process.env.E2E_CLIENT_DIST) {
    if (!fs.existsSync(path.join(outDir, 'index.html'))) throw new Error(`E2E_CLIENT_DIST=${outDir} holds no index.html`);
    return;
  }
  console.log('[e2e] building the client');
  execFileSync('npm', ['run', 'build', '-w', 'client', '--', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
    // A production bundle, as users get it, whatever NODE_ENV the tests run with.
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/**
 * Once per run: a fresh test database and Redis prefix, the client built, an
 * SMTP sink, then the real server (API + Socket.IO + client on one port) and
 * the real workers in this process, a super administrator and SMTP settings
 * pointing at the sink.
 */
export default async function setup(project: TestProject) {
  const dbUrl = process.env.DATABASE_URL ?? '';
  if (!/_test(_[a-z0-9]+)?$/.test(new URL(dbUrl).pathname)) throw new Error(`Refusing to reset ${dbUrl}: test databases end in _test.`);
  ensureChromium();

  // The server's config is read once at import: the port and the public URL
  // (used in mailed links) must be in the environment before the first import.
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  process.env.PORT = String(port);
  process.env.APP_URL = baseUrl;
  const dataDir = path.resolve(ROOT, process.env.DATA_DIR!);
  const clientDist = process.env.E2E_CLIENT_DIST ? path.resolve(ROOT, process.env.E2E_CLIENT_DIST) : path.join(dataDir, 'client-dist');
  process.env.CLIENT_DIST = clientDist;

  // A local Autodesk Platform Services (design-file cloud) that the server is pointed at, read with the rest of its config.
  const { startAdskStandIn } = await import('../test/support/adsk-stand-in.js');
  const { ADSK_CLIENT, ADSK_SECRET, sampleHubs } = await import('../test/support/adsk-sample.js');
  const adsk = await startAdskStandIn({ clientId: ADSK_CLIENT, clientSecret: ADSK_SECRET, hubs: await sampleHubs(), pageSize: 2 });
  process.env.ADSK_BASE_URL = adsk.url;
  // A local PayPal (REST API and the buyer's approval page), likewise.
  const { startPaypalStandIn } = await import('../test/support/paypal-stand-in.js');
  const { PAYPAL_CLIENT, PAYPAL_SECRET, PAYPAL_WEBHOOK_ID } = await import('../test/support/paypal-sample.js');
  const paypal = await startPaypalStandIn({ clientId: PAYPAL_CLIENT, clientSecret: PAYPAL_SECRET, webhookId: PAYPAL_WEBHOOK_ID });
  process.env.PAYPAL_BASE_URL = paypal.url;
  process.env.PAYPAL_WEBHOOK_ID = PAYPAL_WEBHOOK_ID;
  // Local Google, Facebook and X sign-in services (authorization pages, tokens, ID tokens), likewise.
  const { startSocialStandIn } = await import('../test/support/social-stand-in.js');
  const { SOCIAL_CLIENTS, SOCIAL_PEOPLE } = await import('../test/support/social-sample.js');
  const social = await startSocialStandIn({ clients: SOCIAL_CLIENTS, people: SOCIAL_PEOPLE });
  process.env.SOCIAL_GOOGLE_URL = social.baseOf('google');
  process.env.SOCIAL_FACEBOOK_URL = social.baseOf('facebook');
  process.env.SOCIAL_TWITTER_URL = social.baseOf('twitter');

  // Drops and recreates the database, migrates, clears the Redis prefix and DATA_DIR.
  const { default: resetTestState } = await import('../test/global-setup.js');
  await resetTestState();
  buildClient(clientDist);

  const sink = await startSmtpSink();
  // The test files run in other processes: they read the sink through this.
  const mailbox = await serveMailbox(sink);

  const { saveSettings } = await import('@sitewalk/core/services/settings.service.js');
  await saveSettings({ ...sinkSettings(sink.port), smtp_from_name: 'SiteWalk', smtp_valid: true });
  const { createUser } = await import('../api/test/helpers.js');
  const password = 'e2e admin password';
  const { user } = await createUser({ username: 'e2e_admin', super_admin: true, role: 'super_admin', first_name: 'Ada', last_name: 'Admin', password });
  const admin: E2eAdmin = { id: user.id, username: user.username, email: user.email, password };

  const { startServer } = await import('../api/src/server.js');
  const server = await startServer(port);

  let workersProblem = '';
  let workers: { close: () => Promise<void> } | null = null;
  try {
    const { handlers } = await import('../workers/src/jobs/index.js');
    const { startWorkers } = await import('../workers/src/runner.js');
    workers = startWorkers(handlers);
  } catch (err) {
    // Screens that need no job still get tested; the mail and notification tests say why they fail.
    workersProblem = err instanceof Error ? err.message : String(err);
    console.warn(`[e2e] workers not started: ${workersProblem}`);
  }

  project.provide('baseUrl', baseUrl);
  project.provide('mailboxUrl', mailbox.url);
  project.provide('admin', admin);
  project.provide('workersProblem', workersProblem);
  project.provide('adskStandInUrl', adsk.url);
  project.provide('paypalStandInUrl', paypal.url);
  project.provide('socialStandInUrl', social.url);

  return async () => {
    await workers?.close();
    await server.close();
    await mailbox.close();
    await sink.close();
    await adsk.close();
    await paypal.close();
    await social.close();
  };
}
