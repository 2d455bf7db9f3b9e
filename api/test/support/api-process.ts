/**
 * A second API process for tests that need two (a logout on one must be
 * refused by the other at once): the real server on a free loopback port,
 * with the environment it was given. Prints "PORT <n>" once it listens.
 */
import { startServer } from '../../src/server.js';

const running = await startServer(0);
process.stdout.write(`PORT ${running.port}\n`);
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
