// A 100k-text_delta run (scripted provider) delivered to 1, 8 and 64 clients (in another
// process, counting lines), against a raw `net` server writing the same pre-serialized lines to
// the same number of clients in the same run. ratio = pod events/s per client ÷ raw events/s
// per client (goal ≥ 0.7 at 1 client, ≥ 3 at 64). A client that reads never gets `lagged` at
// the provider's speed: the last line is the share of the deltas the reading clients received
// (goal: all of them; a client that lost some counts as done at `run_end`). Each client count
// first runs one uncounted round of each side (FANOUT_WARMUP), then FANOUT_ROUNDS counted ones.
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

async function viaPod(clients) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-fan-'));
  fs.writeFileSync(path.join(dir, 's.json'), JSON.stringify([{ chunks }]));
  fs.writeFileSync(
    path.join(dir, 'yoi.config.json'),
    JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
  );
  const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };
  const config = await loadConfig({ cwd: dir, env, defaultPlugins: defaultPlugins() });
  const pod = await Pod.start({ config, host: createHostFromConfig(config), name: 'fan', env });
  const c = spawnClients(pod.paths.socket, clients, DELTAS, { v2: true });
  await c.ready;
  c.go();
  // Send the run from a throwaway connection so no client shares the pod's process.
  const s = net.connect(pod.paths.socket, () =>
    s.end('{"method":"run","params":{"input":[{"kind":"text","content":"go"}]}}\n'),
  );
  const ms = await c.done;
  c.kill();
  await pod.stop();
  fs.rmSync(dir, { recursive: true, force: true });
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
const rounds = Number(process.env.FANOUT_ROUNDS ?? 3);
// As in the other throughput benchmarks, a first round of each side is not counted: a pod serves
// many runs in one process, and the first run in a fresh process times V8 compiling its code.
const warmUp = Number(process.env.FANOUT_WARMUP ?? 1);
for (const n of [1, 8, 64]) {
  const pod = [];
  const raw = [];
  for (let r = 0; r < warmUp; r++) {
    await viaRaw(n);
    await viaPod(n);
  }
  for (let r = 0; r < rounds; r++) {
    raw.push(await viaRaw(n));
    pod.push(await viaPod(n));
  }
  const p = median(pod);
  const q = median(raw);
  report(`fanout ${n} client(s)`, p / q, goals[n], {
    higherIsBetter: true,
    detail: `pod ${Math.round(p)} events/s per client, raw ${Math.round(q)}`,
  });
}
report('fanout: deltas received by the reading clients, of all sent', 1 - delivered.short / delivered.sent, 1, {
  higherIsBetter: true,
  detail: `${delivered.sent - delivered.short} of ${delivered.sent} (${DELTAS}-delta runs), ${delivered.short} lost to lagged`,
});
