// `run` → first `text_delta` and `run` → `run_end` on the echo provider, p50/p99 over 1000
// runs, against a raw socket echo round trip measured in the same run. The pod runs in its own
// process (as users run it); the client only looks for markers in lines. Goal: p99 ≤ 5x the
// raw round trip's p99 (for the first delta; run_end is reported alongside).
// LATENCY_EXPLAIN=1 adds where the slowest runs' time went (outside the timed spans): the pod's
// main thread on a CPU and waiting for one (/proc schedstat), the client's wait, and the runs a
// GC pause of the pod overlapped (bench/support/gcLog.js preloaded into the pod).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { report } from './measure.js';
import { gcOverlaps, tailReport } from './support/latencyTail.js';
import { lineSocket } from './support/lineSocket.js';
import { schedstat } from './support/schedstat.js';
import { startPodProcess } from './support/startPodProcess.js';

const RUNS = Number(process.env.LATENCY_RUNS ?? 1000);
const EXPLAIN = process.env.LATENCY_EXPLAIN === '1';
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const us = (ns) => Number(ns) / 1000;

// Baseline: a bare line echo server in its own process.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-echo-'));
const sock = path.join(dir, 'sock');
const echo = spawn(
  process.execPath,
  [
    '-e',
    `require('net').createServer(s=>s.on('data',d=>s.write(d))).listen(${JSON.stringify(sock)},()=>console.log('up'))`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise((r) => echo.stdout.once('data', r));
const raw = await lineSocket(sock);
const rtt = [];
for (let i = 0; i < RUNS + 50; i++) {
  const t = process.hrtime.bigint();
  const got = raw.next('"ping"');
  raw.write(`{"method":"run","params":{"input":[{"kind":"text","content":"ping ${i}"}]},"x":"ping"}`);
  const at = await got;
  if (i >= 50) rtt.push(us(at - t));
}
raw.close();
echo.kill();

const gcLog = path.join(dir, 'gc.json');
if (EXPLAIN)
  Object.assign(process.env, {
    GC_LOG: gcLog,
    NODE_OPTIONS: `--import=${new URL('./support/gcLog.js', import.meta.url)}`,
  });
const pod = await startPodProcess();
delete process.env.NODE_OPTIONS;
const c = await lineSocket(pod.socket);
const welcome = c.next('"welcome"');
c.write('{"method":"hello","params":{"protocol_version":2,"client":"bench"}}');
await welcome;
const first = [];
const end = [];
const runs = []; // with LATENCY_EXPLAIN: each run's start (epoch ms), first delta (µs) and scheduler accounts
for (let i = 0; i < RUNS + 50; i++) {
  const before = EXPLAIN && {
    at: performance.timeOrigin + performance.now(),
    pod: schedstat(pod.pid),
    me: schedstat(process.pid),
  };
  const t = process.hrtime.bigint();
  const delta = c.next('"text_delta"');
  const done = c.next('"run_end"');
  const idle = c.next('"status":"idle"'); // after run_end: the pod is ready for the next run
  c.write(`{"method":"run","params":{"input":[{"kind":"text","content":"ping ${i}"}]}}`);
  const [a, b] = await Promise.all([delta, done, idle]);
  if (i >= 50) {
    first.push(us(a - t));
    end.push(us(b - t));
    if (before) runs.push({ ...before, us: us(a - t), podAfter: schedstat(pod.pid), meAfter: schedstat(process.pid) });
  }
}
c.close();
await pod.stop();
if (EXPLAIN)
  for (const line of tailReport(runs, gcOverlaps(runs, JSON.parse(fs.readFileSync(gcLog, 'utf8'))))) console.log(line);
fs.rmSync(dir, { recursive: true, force: true });

const fmt = (xs) => `p50 ${pct(xs, 50).toFixed(0)} µs, p99 ${pct(xs, 99).toFixed(0)} µs`;
console.log(`latency raw echo round trip: ${fmt(rtt)}`);
report('latency run → first text_delta (p99 vs raw p99)', pct(first, 99) / pct(rtt, 99), 5, {
  higherIsBetter: false,
  detail: fmt(first),
});
report('latency run → run_end (p99 vs raw p99)', pct(end, 99) / pct(rtt, 99), 5, {
  higherIsBetter: false,
  detail: fmt(end),
});
