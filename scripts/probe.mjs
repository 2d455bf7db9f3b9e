// Usage: node scripts/probe.mjs postgres|redis URL  — exits 0 when the server answers.
import net from 'node:net';
const [kind, url] = process.argv.slice(2);
const u = new URL(url);
const port = Number(u.port || (kind === 'redis' ? 6379 : 5432));
const host = u.hostname || '127.0.0.1';
const sock = net.connect({ host, port, timeout: 2000 });
const fail = () => { sock.destroy(); process.exit(1); };
sock.on('error', fail);
sock.on('timeout', fail);
sock.on('connect', () => {
  if (kind !== 'redis') { sock.end(); process.exit(0); }
  sock.write('PING\r\n');
});
sock.on('data', (d) => {
  // "+PONG" or "-NOAUTH": either way a Redis server answers.
  const s = d.toString();
  sock.end();
  process.exit(s.startsWith('+PONG') || s.startsWith('-NOAUTH') ? 0 : 1);
});
