// The commands that address a running pod, as a user runs them (a new `yoi` process each time),
// against the least a client can do (bench/support/rawPodClient.js: its own node process,
// connect, hello, one request), measured in the same run, interleaved:
// - `yoi send hi`: process start → the first reply byte on stdout (the raw client prints the
//   first text_delta's text);
// - `yoi history`, `yoi cancel` (refused: the pod is idle), `yoi pod status`: process start →
//   exit (the raw client: → its reply).
// The pod runs in its own process on the echo provider. Goal: each ≤ 2x the raw client.
// POD_COMMANDS_RUNS (default 11) per command.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { report } from './measure.js';
import { startPodProcess } from './support/startPodProcess.js';

const RUNS = Number(process.env.POD_COMMANDS_RUNS ?? 11);
const WARMUP = 2;
const bin = fileURLToPath(new URL('../bin/run.js', import.meta.url));
const raw = fileURLToPath(new URL('support/rawPodClient.js', import.meta.url));

const pod = await startPodProcess({ name: 'bench' });
const env = { ...process.env, YOI_RUNTIME_DIR: `${pod.dir}/run` };

/** ms from spawning `args` to its first stdout byte (`firstByte`) or to its exit. */
function timed(args, { firstByte }) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    let at;
    const child = spawn(process.execPath, args, { cwd: pod.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.once('data', () => (at ??= performance.now() - t));
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', () => resolve(firstByte ? (at ?? NaN) : performance.now() - t));
  });
}

const cases = [
  { name: 'send (first reply byte)', yoi: ['send', 'hi'], raw: 'run', firstByte: true },
  { name: 'history', yoi: ['history'], raw: 'get_history' },
  { name: 'cancel (refused: idle)', yoi: ['cancel'], raw: 'cancel' },
  { name: 'pod status', yoi: ['pod', 'status'], raw: 'get_history' },
];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s.at(-1) };
};
let ok = true;
try {
  for (const c of cases) {
    const yoiTimes = [];
    const rawTimes = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const y = await timed([bin, ...c.yoi, '--pod', 'bench'], c);
      const r = await timed([raw, pod.socket, c.raw], c);
      if (i >= WARMUP) {
        yoiTimes.push(y);
        rawTimes.push(r);
      }
    }
    const [y, r] = [stats(yoiTimes), stats(rawTimes)];
    ok =
      report(`pod-commands ${c.name} vs a raw socket client`, y.median / r.median, 2, {
        detail: `yoi ${y.median.toFixed(1)} ms (${y.min.toFixed(0)}–${y.max.toFixed(0)}), raw ${r.median.toFixed(1)} ms (${r.min.toFixed(0)}–${r.max.toFixed(0)})`,
      }) && ok;
  }
} finally {
  await pod.stop();
}
process.exitCode = ok ? 0 : 1;
