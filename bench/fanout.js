// A 100k-text_delta run (scripted provider) delivered to 1, 8 and 64 clients (in another
// process, counting lines), against a raw `net` server writing the same pre-serialized lines to
// the same number of clients in the same run. ratio = pod events/s per client ÷ raw events/s
// per client (goal ≥ 0.7 at 1 client, ≥ 3 at 64). A client that reads never gets `lagged` at
// the provider's speed: the last line is the share of the deltas the reading clients received
// (goal: all of them; a client that lost some counts as done at `run_end`). Each client count
// first runs three uncounted rounds of each side (FANOUT_WARMUP), then 7 counted ones at 1 client
// and 3 at 8 and 64 (FANOUT_ROUNDS); all runs of one client count stream from one pod.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createHostFromConfig } from '../dist/core/config/createHostFromConfig.js';
import { loadConfig } from '../dist/core/config/loadConfig.js';
import { Pod } from '../dist/core/pod/Pod.js';
import { encodeEvent } from '../dist/core/protocol/index.js';
import { defaultPlugins } from '../dist/plugins/index.js';
import { report } from './measure.js';
import { rawLineServer } from './support/rawLineServer.js';
import { spawnClients } from './support/spawnClients.js';

const DELTAS = Number(process.env.FANOUT_DELTAS ?? 100_000);
const chunks = Array.from({ length: DELTAS }, (_, i) => `tok${i} `);
const goals = { 1: 0.7, 8: 0.4, 64: 3 };
/** Deltas the pod's reading clients should have got, and those they did not (lost to `lagged`). */
const delivered = { sent: 0, short: 0 };

/**
 * One pod per client count, serving every round of it: a pod is long-lived and streams many
 * replies in one process. (A new pod per round measured a pod in its first runs, in a process
 * holding the garbage of the pods before it.)
 */
async function startPod(runs) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-fan-'));
  fs.writeFileSync(path.join(dir, 's.json'), JSON.stringify(Array.from({ length: runs }, () => ({ chunks }))));
  fs.writeFileSync(
    path.join(dir, 'yoi.config.json'),
    JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
  );
  const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };
  const config = await loadConfig({ cwd: dir, env, defaultPlugins: defaultPlugins() });
  const pod = await Pod.start({ config, host: createHostFromConfig(config), name: 'fan', env });
  return {
    pod,
    async stop() {
      await pod.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function viaPod(pod, clients) {
  const c = spawnClients(pod.paths.socket, clients, DELTAS, { v2: true });
  await c.ready;
  c.go();
  // Send the run from a throwaway connection so no client shares the pod's process.
  const s = net.connect(pod.paths.socket, () =>
    s.end('{"method":"run","params":{"input":[{"kind":"text","content":"go"}]}}\n'),
  );
  const ms = await c.done;
  c.kill();
  // The next run starts on an idle pod. (Polled after the clock stopped: a bus subscriber in this
  // process would be called for every delta, on the pod's thread.)
  const stop = Date.now() + 10_000;
  while (pod.status !== 'idle') {
    if (Date.now() > stop) throw new Error(`the pod is still ${pod.status} 10 s after its run`);
    await new Promise((r) => setTimeout(r, 1));
  }
  delivered.sent += DELTAS * clients;
  delivered.short += c.short;
  return (DELTAS / ms) * 1000;
}

async function viaRaw(clients) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-raw-'));
  const server = await rawLineServer(path.join(dir, 'sock'));
  const lines = chunks.map((text, i) =>
    Buffer.from(`${encodeEvent({ event: 'text_delta', seq: i + 3, data: { text } })}\n`),
  );
  const c = spawnClients(path.join(dir, 'sock'), clients, DELTAS);
  await c.ready;
  c.go();
  await server.broadcast(lines);
  const ms = await c.done;
  c.kill();
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return (DELTAS / ms) * 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// 7 counted rounds at 1 client, whose runs take ~60 ms and move by a third when a major GC falls in
// one; 3 for 8 and 64 clients (the raw server's 64-client rounds take ~12 s).
const roundsFor = (n) => Number(process.env.FANOUT_ROUNDS ?? (n === 1 ? 7 : 3));
// As in the other throughput benchmarks, the first rounds of each side are not counted: a pod
// serves many runs in one process, and its first runs time V8 compiling its code (10–30 functions
// optimized in each of the first three runs, 3–6 from the fourth on). They are shown, as `first`.
const warmUp = Number(process.env.FANOUT_WARMUP ?? 3);
const per = (xs) => xs.map((x) => `${(x / 1e6).toFixed(2)}M`).join(' ');
for (const n of [1, 8, 64]) {
  const pod = [];
  const raw = [];
  const first = [];
  const rounds = roundsFor(n);
  const served = await startPod(warmUp + rounds);
  for (let r = 0; r < warmUp; r++) {
    await viaRaw(n);
    first.push(await viaPod(served.pod, n));
  }
  for (let r = 0; r < rounds; r++) {
    raw.push(await viaRaw(n));
    pod.push(await viaPod(served.pod, n));
  }
  await served.stop();
  const p = median(pod);
  const q = median(raw);
  report(`fanout ${n} client(s)`, p / q, goals[n], {
    higherIsBetter: true,
    detail: `pod ${Math.round(p)} events/s per client, raw ${Math.round(q)} (runs of the pod: first ${per(first)}, counted ${per(pod)}; raw ${per(raw)})`,
  });
}
report('fanout: deltas received by the reading clients, of all sent', 1 - delivered.short / delivered.sent, 1, {
  higherIsBetter: true,
  detail: `${delivered.sent - delivered.short} of ${delivered.sent} (${DELTAS}-delta runs), ${delivered.short} lost to lagged`,
});
