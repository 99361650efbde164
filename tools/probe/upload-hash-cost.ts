// What a keyed upload adds (issue 28 item 1): one SHA-256 pass over the file as it streams, in 64 KiB chunks as busboy
// hands them. Unkeyed uploads hash nothing more. `node tools/probe/upload-hash-cost.ts`.
import { createHash } from 'node:crypto';
const chunk = Buffer.alloc(64 * 1024, 7);
const mb = 20, rounds = 5, times = [];
for (let r = 0; r < rounds; r++) {
  const t = performance.now();
  const h = createHash('sha256');
  for (let i = 0; i < (mb * 1024 * 1024) / chunk.length; i++) h.update(chunk);
  h.digest('hex');
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(`sha256 of ${mb} MB in 64 KiB chunks: median ${times[2].toFixed(1)} ms, best ${times[0].toFixed(1)} ms (${(mb / (times[2] / 1000)).toFixed(0)} MB/s); load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
