// Starting a pod: `yoi pod start --name N` in a project without a config (the echo provider),
// from the process start to its `listening <socket>` line, against a bare `node -e 0`, measured
// in the same run and interleaved. Goal: ≤ 2.5x. Each pod is stopped (SIGTERM, not timed) before
// the next. POD_START_RUNS (default 11).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { POD_NODE_FLAGS } from '../dist/core/pod/podNodeFlags.js';
import { report } from './measure.js';

const RUNS = Number(process.env.POD_START_RUNS ?? 11);
const WARMUP = 2;
const bin = fileURLToPath(new URL('../bin/run.js', import.meta.url));
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bps-')));
const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };

/** ms from spawning the pod (as the `yoi` executable starts it: its shebang's flags) to `listening`. */
const podStart = (i) =>
  new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, [...POD_NODE_FLAGS, bin, 'pod', 'start', '--name', `p${i}`], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let ms;
    child.stdout.on('data', (d) => {
      out += d;
      if (ms === undefined && out.includes('listening ')) {
        ms = performance.now() - t;
        child.kill('SIGTERM');
      }
    });
    child.stderr.resume();
    child.once('error', reject);
    child.once('exit', (code) =>
      ms === undefined ? reject(new Error(`pod exited with ${code}: ${out}`)) : resolve(ms),
    );
  });
const node = () => {
  const t = performance.now();
  execFileSync(process.execPath, ['-e', '0']);
  return performance.now() - t;
};

const pods = [];
const nodes = [];
for (let i = 0; i < WARMUP + RUNS; i++) {
  const p = await podStart(i);
  const n = node();
  if (i >= WARMUP) {
    pods.push(p);
    nodes.push(n);
  }
}
fs.rmSync(dir, { recursive: true, force: true });
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s.at(-1) };
};
const [p, n] = [stats(pods), stats(nodes)];
report('pod-start yoi pod start to listening vs node -e 0', p.median / n.median, 2.5, {
  detail: `${p.median.toFixed(0)} ms (${p.min.toFixed(0)}–${p.max.toFixed(0)}) vs ${n.median.toFixed(0)} ms (${n.min.toFixed(0)}–${n.max.toFixed(0)})`,
});
