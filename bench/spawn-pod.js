// Spawning a child pod: the SpawnPod tool of a parent pod (in this process, on the echo
// provider), from the call to its result — scope reserved in scope.lock, `yoi pod start --adopt`
// started detached, its socket accepting connections, the task acknowledged — against a bare
// `node -e 0` measured in the same run. Each child is stopped (StopPod, not timed) before the
// next. Goal: ≤ 3x. For information, where a child's time goes: node with yoi's bin alone
// (`--version`), and a top-level `yoi pod start` to its `listening` line.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../dist/core/config/loadConfig.js';
import { createHostFromConfig } from '../dist/core/config/createHostFromConfig.js';
import { Pod } from '../dist/core/pod/Pod.js';
import { defaultPlugins } from '../dist/plugins/index.js';
import { medianMs, report } from './measure.js';

const RUNS = Number(process.env.SPAWN_POD_RUNS ?? 9);
const WARMUP = 2;
const bin = fileURLToPath(new URL('../bin/run.js', import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bs-')));
fs.mkdirSync(path.join(dir, 'src'));
const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };
const config = await loadConfig({ cwd: dir, env, defaultPlugins: defaultPlugins() });
const host = createHostFromConfig(config);
const parent = await Pod.start({ config, host, name: 'parent', env });
const tool = (name) => host.hooks.tools.get(name).call(parent.info);
const [spawnPod, stopPod] = [tool('SpawnPod'), tool('StopPod')];
const ctx = (callId) => ({ ...parent.info, signal: new AbortController().signal, callId });

const node = await medianMs(() => execFileSync(process.execPath, ['-e', '0']), { runs: 15, warmup: 3 });
const spawnTimes = [];
for (let i = 0; i < WARMUP + RUNS; i++) {
  const name = `kid${i}`;
  const t = performance.now();
  const out = await spawnPod.execute(
    { name, task: 'hello', scope: [{ target: 'src', permission: 'write', recursive: true }] },
    ctx(`s${i}`),
  );
  const ms = performance.now() - t;
  if (out.is_error) throw new Error(out.summary);
  if (i >= WARMUP) spawnTimes.push(ms);
  await stopPod.execute({ name }, ctx(`t${i}`));
}
const spawned = median(spawnTimes);

// Where the time goes (information only).
const version = await medianMs(() => execFileSync(process.execPath, [bin, '--version']), { runs: 9, warmup: 2 });
const topLevel = await medianMs(
  () =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, 'pod', 'start', '--name', 'top'], {
        cwd: dir,
        env,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      child.stdout.once('data', () => {
        child.kill('SIGTERM');
        child.once('exit', resolve);
      });
      child.once('error', reject);
    }),
  { runs: 5, warmup: 1 },
);

await parent.stop();
fs.rmSync(dir, { recursive: true, force: true });
console.log(
  `spawn-pod info: node -e 0 ${node.toFixed(0)} ms; yoi --version ${version.toFixed(0)} ms; top-level yoi pod start to listening ${topLevel.toFixed(0)} ms`,
);
const ok = report('spawn-pod SpawnPod to a ready child vs node -e 0', spawned / node, 3, {
  detail: `${spawned.toFixed(0)} ms vs ${node.toFixed(0)} ms (median of ${RUNS})`,
});
process.exitCode = ok ? 0 : 1;
