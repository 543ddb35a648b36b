// One client stops reading while another receives a 100k-delta run. The reading client's
// throughput must stay ≥ 0.8x of the same run without the stalled client, and the pod's RSS
// growth must stay under the per-client queue bound (8 MiB) + 20 MB. Pod in its own process.
import net from 'node:net';
import { report } from './measure.js';
import { spawnClients } from './support/spawnClients.js';
import { rssOf, startPodProcess } from './support/startPodProcess.js';

const DELTAS = Number(process.env.SLOW_DELTAS ?? 100_000);
const chunks = Array.from({ length: DELTAS }, (_, i) => `token number ${i} `);
const files = {
  's.json': JSON.stringify([{ chunks }]),
  'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
};

async function run(stalled) {
  const pod = await startPodProcess({ files });
  const clients = spawnClients(pod.socket, 1, DELTAS, { v2: true, stalled });
  await clients.ready;
  const before = rssOf(pod.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pod.pid))), 10);
  clients.go();
  const s = net.connect(pod.socket, () =>
    s.end('{"method":"run","params":{"input":[{"kind":"text","content":"go"}]}}\n'),
  );
  const ms = await clients.done;
  clearInterval(sampler);
  clients.kill();
  await pod.stop();
  return { eps: (DELTAS / ms) * 1000, growth: peak - before };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rounds = Number(process.env.SLOW_ROUNDS ?? 3);
const alone = [];
const withStalled = [];
for (let i = 0; i < rounds; i++) {
  alone.push(await run(0));
  withStalled.push(await run(1));
}
const a = median(alone.map((r) => r.eps));
const b = median(withStalled.map((r) => r.eps));
const growth = Math.max(...withStalled.map((r) => r.growth));
const MB = 1024 * 1024;
report('slow-client: reader throughput with a stalled client vs without', b / a, 0.8, {
  higherIsBetter: true,
  detail: `${Math.round(b)} vs ${Math.round(a)} events/s`,
});
report('slow-client: pod RSS growth vs queue bound + 20 MB', growth / (8 * MB + 20 * MB), 1, {
  higherIsBetter: false,
  detail: `peak growth ${(growth / MB).toFixed(1)} MB (bound 28 MB)`,
});
