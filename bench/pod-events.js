// Children reporting to their parent: 10k `pod_event` reports from 10 child connections into one
// parent pod (its own process, the echo provider: every report is rendered, committed to the
// history and auto-runs the idle pod). Measured: the real child outbox (acknowledged delivery:
// hello, a request id per report, each report waiting for the parent's `ack`, in order per
// child). Baseline: the original's fire-and-forget transport on the same socket path, a raw
// connect-write-close per report (the close awaited, so the parent has read the line).
// Rounds alternate between the two, each on a fresh parent. Goal: time per report ≤ 3x.
import net from 'node:net';
import { PodEventOutbox } from '../dist/plugins/podtree/PodEventOutbox.js';
import { report } from './measure.js';
import { startPodProcess } from './support/startPodProcess.js';

const CHILDREN = 10;
const REPORTS = Number(process.env.POD_EVENTS_REPORTS ?? 10_000);
const ROUNDS = Number(process.env.POD_EVENTS_ROUNDS ?? 3);
const per = REPORTS / CHILDREN;
const event = (child, i) => ({ kind: 'errored', pod_name: `child-${child}`, message: `report ${i}` });

async function viaOutbox(socketPath) {
  const t = performance.now();
  await Promise.all(
    Array.from({ length: CHILDREN }, async (_, child) => {
      const outbox = new PodEventOutbox({ socketPath, clientName: `pod/child-${child}`, log: (l) => console.error(l) });
      for (let i = 0; i < per; i++) outbox.send(event(child, i));
      if (!(await outbox.drain(600_000))) throw new Error('reports were not all delivered');
      outbox.close();
    }),
  );
  return performance.now() - t;
}

function connectWriteClose(socketPath, line) {
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath, () => s.end(line));
    s.on('data', () => undefined); // replayed alerts
    s.once('error', reject);
    s.once('close', resolve);
  });
}

async function raw(socketPath) {
  const t = performance.now();
  await Promise.all(
    Array.from({ length: CHILDREN }, async (_, child) => {
      for (let i = 0; i < per; i++)
        await connectWriteClose(socketPath, `${JSON.stringify({ method: 'pod_event', params: event(child, i) })}\n`);
    }),
  );
  return performance.now() - t;
}

const times = { outbox: [], raw: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, fn] of [
    ['raw', raw],
    ['outbox', viaOutbox],
  ]) {
    const pod = await startPodProcess({ name: 'parent' });
    times[name].push(await fn(pod.socket));
    await pod.stop();
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const perReport = (ms) => (ms * 1000) / REPORTS;
const [o, r] = [median(times.outbox), median(times.raw)];
const ok = report('pod-events acknowledged report vs connect-write-close', o / r, 3, {
  detail: `${perReport(o).toFixed(0)} µs vs ${perReport(r).toFixed(0)} µs per report (${REPORTS} reports from ${CHILDREN} children, median of ${ROUNDS})`,
});
process.exitCode = ok ? 0 : 1;
