import http from 'node:http';
import fs from 'node:fs';
import { Server } from '@tus/server';
import { FileStore } from '@tus/file-store';
const MiB = 1024*1024; const block = Buffer.alloc(MiB, 7); const size = 512*MiB; const PIECE = 64*MiB;
fs.mkdirSync('/tmp/exp/tus', { recursive: true });
function request(port, method, p, headers, bytes=0) { return new Promise((resolve, reject) => {
  const req = http.request({ host:'127.0.0.1', port, method, path:p, headers:{...headers, 'Content-Length': String(bytes)} }, (res) => { res.resume(); res.on('end', () => resolve(res)); });
  req.on('error', reject); let left = bytes;
  const pump = () => { while (left > 0) { const n = Math.min(left, MiB); left -= n; if (!req.write(block.subarray(0,n))) return void req.once('drain', pump); } req.end(); }; pump(); }); }
const cpu = () => { const u = process.cpuUsage(); return (u.user+u.system)/1e6; };
const tus = new Server({ path: '/files', datastore: new FileStore({ directory: '/tmp/exp/tus' }) });
const tusSrv = http.createServer((req, res) => tus.handle(req, res)); await new Promise(r => tusSrv.listen(0, '127.0.0.1', r));
const plainSrv = http.createServer((req, res) => { const start = Number(req.headers['x-offset']); req.pipe(fs.createWriteStream('/tmp/exp/plain.bin', { flags: 'r+', start })).on('finish', () => res.writeHead(204).end()); });
await new Promise(r => plainSrv.listen(0, '127.0.0.1', r));
async function viaTus() {
  const c = await request(tusSrv.address().port, 'POST', '/files', { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size) });
  const loc = c.headers.location; const path = new URL(loc, 'http://x').pathname;
  for (let o = 0; o < size; o += PIECE) { const r = await request(tusSrv.address().port, 'PATCH', path, { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(o), 'Content-Type': 'application/offset+octet-stream' }, PIECE); if (r.statusCode !== 204) throw new Error('patch ' + r.statusCode); }
}
async function viaPlain() { fs.writeFileSync('/tmp/exp/plain.bin', ''); for (let o = 0; o < size; o += PIECE) await request(plainSrv.address().port, 'PATCH', '/', { 'X-Offset': String(o) }, PIECE); }
for (let round = 0; round < 3; round++) for (const [name, f] of [['tus', viaTus], ['plain', viaPlain]]) {
  const c0 = cpu(), t0 = performance.now(); await f(); const s = (performance.now()-t0)/1000, c = cpu()-c0;
  console.log(name, (size/MiB/s).toFixed(0), 'MB/s', (c*2).toFixed(2), 'cpu-s/GiB');
}
process.exit(0);
