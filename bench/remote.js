// The pod over WebSocket (yoi:ws) against the same pod over its Unix socket, in the same run:
// (1) `run` → first `text_delta` on the echo provider, p50 over alternating runs on each
// transport (goal: ws p50 ≤ 1.5x the socket's); (2) a DELTAS-delta run (scripted provider)
// fanned out to 64 ws clients vs 64 socket clients, events/s per client (goal: ws ≥ 0.7x).
// One pod process serves both; clients only look for markers (the fan-out's in another process).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import WebSocket from 'ws';
import { report } from './measure.js';
import { spawnClients } from './support/spawnClients.js';
import { startPodProcess } from './support/startPodProcess.js';

const RUNS = Number(process.env.REMOTE_RUNS ?? 300);
const DELTAS = Number(process.env.REMOTE_DELTAS ?? 20_000);
const CLIENTS = Number(process.env.REMOTE_CLIENTS ?? 64);
const ROUNDS = Number(process.env.REMOTE_ROUNDS ?? 3);
const HELLO = '{"method":"hello","params":{"protocol_version":2,"client":"bench"}}';
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const median = (xs) => pct(xs, 50);

/** A line client over either transport: `next(marker)` resolves with the hrtime of the first line containing it. */
async function lineClient(kind, target, token) {
  let waiters = [];
  const onLine = (line) => {
    const now = process.hrtime.bigint();
    waiters = waiters.filter((w) => !(line.includes(w.marker) && (w.resolve(now), true)));
  };
  let write;
  let close;
  let count = () => 0;
  if (kind === 'socket') {
    const s = net.connect(target);
    await new Promise((r, j) => s.once('connect', r).once('error', j));
    let carry = '';
    let deltas = 0;
    s.setEncoding('utf8');
    s.on('data', (d) => {
      const lines = (carry + d).split('\n');
      carry = lines.pop();
      for (const line of lines) {
        if (line.startsWith('{"event":"text_delta"')) deltas++;
        if (waiters.length) onLine(line);
      }
    });
    write = (line) => s.write(`${line}\n`);
    close = () => s.destroy();
    count = () => deltas;
  } else {
    const ws = new WebSocket(target, { headers: { authorization: `Bearer ${token}` }, perMessageDeflate: false });
    await new Promise((r, j) => ws.once('open', r).once('error', j));
    let deltas = 0;
    ws.on('message', (d) => {
      const line = d.toString();
      if (line.startsWith('{"event":"text_delta"')) deltas++;
      if (waiters.length) onLine(line);
    });
    write = (line) => ws.send(line);
    close = () => ws.terminate();
    count = () => deltas;
  }
  const c = { write, close, count, next: (marker) => new Promise((resolve) => waiters.push({ marker, resolve })) };
  const welcome = c.next('"welcome"');
  c.write(HELLO);
  await welcome;
  return c;
}

const script = [];
for (let i = 0; i < 2 * ROUNDS; i++) script.push({ chunks: Array.from({ length: DELTAS }, (_, j) => `tok${j} `) });
const pod = await startPodProcess({
  name: 'remote',
  args: ['--listen', 'ws://127.0.0.1:0'],
  files: {
    's.json': JSON.stringify(script),
    'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
  },
});
const podDir = path.join(pod.dir, 'run', 'remote');
const {
  listen: [url],
} = JSON.parse(fs.readFileSync(path.join(podDir, 'endpoints.json'), 'utf8'));
const token = fs.readFileSync(path.join(podDir, 'token'), 'utf8').trim();

// (2) first: the scripted replies come before the echo ones. The counting clients live in
// another process (bench/support/countingClients.js), as in bench/fanout.js.
const rate = { socket: [], ws: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of ['socket', 'ws']) {
    const c = spawnClients(kind === 'socket' ? pod.socket : url, CLIENTS, DELTAS, { v2: true, token });
    await c.ready;
    const driver = await lineClient('socket', pod.socket, token);
    const idle = driver.next('"status":"idle"');
    c.go();
    driver.write('{"method":"run","params":{"input":[{"kind":"text","content":"go"}]}}');
    const ms = await c.done;
    rate[kind].push((DELTAS / ms) * 1000);
    await idle;
    driver.close();
    c.kill();
  }
}

// (1) the echo provider now answers: alternate the transports run by run.
const sock = await lineClient('socket', pod.socket, token);
const ws = await lineClient('ws', url, token);
const first = { socket: [], ws: [] };
for (let i = 0; i < 2 * (RUNS + 50); i++) {
  const kind = i % 2 === 0 ? 'socket' : 'ws';
  const c = kind === 'socket' ? sock : ws;
  const t = process.hrtime.bigint();
  const delta = c.next('"text_delta"');
  // Both clients see every run: wait until both saw this one end, so neither reads an old one.
  const idle = [sock.next('"status":"idle"'), ws.next('"status":"idle"')];
  c.write(`{"method":"run","params":{"input":[{"kind":"text","content":"ping ${i}"}]}}`);
  const at = await delta;
  await Promise.all(idle);
  if (i >= 100) first[kind].push(Number(at - t) / 1000);
}
sock.close();
ws.close();
await pod.stop();

const fmt = (xs) => `p50 ${median(xs).toFixed(0)} µs, p99 ${pct(xs, 99).toFixed(0)} µs`;
report('remote run → first text_delta, ws vs socket (p50)', median(first.ws) / median(first.socket), 1.5, {
  higherIsBetter: false,
  detail: `ws ${fmt(first.ws)}; socket ${fmt(first.socket)}`,
});
report(
  `remote fan-out to ${CLIENTS} clients, ws vs socket (events/s per client)`,
  median(rate.ws) / median(rate.socket),
  0.7,
  {
    higherIsBetter: true,
    detail: `ws ${Math.round(median(rate.ws))}/s, socket ${Math.round(median(rate.socket))}/s per client`,
  },
);
