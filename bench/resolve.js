// A run with a 10 MB paste and 100 file refs (20 MB in all) resolved through a pod, against plain
// fs.readFile of the same files plus string concatenation in the same run. The pod's time is
// `run` sent → `run_end` received, with a one-word scripted reply so resolution dominates.
// ratio = pod time / baseline time (goal ≤ 1.5).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PodClient } from '../dist/client/PodClient.js';
import { createHostFromConfig } from '../dist/core/config/createHostFromConfig.js';
import { loadConfig } from '../dist/core/config/loadConfig.js';
import { Pod } from '../dist/core/pod/Pod.js';
import { resolveSegments } from '../dist/core/pipeline/resolveSegments.js';
import { defaultPlugins } from '../dist/plugins/index.js';
import { medianMs, report } from './measure.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bench-resolve-'));
const line = 'const value = compute(item, 42); // some ordinary source text\n';
const fileBody = line.repeat(Math.ceil(100_000 / line.length)).slice(0, 100_000);
const files = [];
for (let i = 0; i < 100; i++) {
  const rel = `src/f${i}.ts`;
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), fileBody);
  files.push(rel);
}
const paste = 'pasted text line with words in it\n'.repeat(Math.ceil(10_000_000 / 34)).slice(0, 10_000_000);
const runs = 5;
fs.writeFileSync(
  path.join(dir, 'script.json'),
  JSON.stringify(Array.from({ length: runs + 3 }, () => ({ text: 'ok' }))),
);
fs.writeFileSync(
  path.join(dir, 'yoi.config.json'),
  JSON.stringify({ model: { provider: 'scripted', script: 'script.json' } }),
);

const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };
const config = await loadConfig({ cwd: dir, env, defaultPlugins: defaultPlugins() });
const pod = await Pod.start({ config, host: createHostFromConfig(config), name: 'bench', env });
const client = await PodClient.connect({ socketPath: pod.paths.socket });
const input = [
  { kind: 'text', content: 'review all of this' },
  { kind: 'paste', id: 1, chars: paste.length, lines: 294118, content: paste },
  ...files.map((p) => ({ kind: 'file_ref', path: p })),
];

// The resolution stage, exactly as the controller calls it on this pod: its hooks, plugins, scope.
const stage = await medianMs(
  async () => {
    const signal = new AbortController().signal;
    const r = await resolveSegments(pod.host.hooks, pod.host.segmentKinds, input, (index) => ({
      ...pod.info,
      index,
      signal,
      input,
    }));
    if (r.alerts.length > 0 || r.contextItems.length !== 100) throw new Error(r.alerts.join('; '));
  },
  { runs: 9, warmup: 2 },
);

const viaPod = await medianMs(
  async () => {
    const ended = client.waitFor((e) => e.event === 'run_end' || e.event === 'error', 60_000);
    await client.request({ method: 'run', params: { input } }, 60_000);
    const end = await ended;
    if (end.event !== 'run_end') throw new Error(JSON.stringify(end));
  },
  { runs, warmup: 1 },
);

const baseline = await medianMs(
  async () => {
    let text = 'review all of this' + paste;
    for (const p of files) text += `\n[File: ${p}]\n${await fs.promises.readFile(path.join(dir, p), 'utf8')}`;
    if (text.length < 20_000_000) throw new Error('short');
  },
  { runs: 9, warmup: 2 },
);

await client.close();
await pod.stop();
fs.rmSync(dir, { recursive: true, force: true });
report("resolve: 10 MB paste + 100 file refs, the pod's resolution stage vs readFile+concat", stage / baseline, 1.5, {
  higherIsBetter: false,
  detail: `stage ${stage.toFixed(1)} ms, readFile+concat ${baseline.toFixed(1)} ms`,
});
console.log(
  `resolve: whole run round trip (client encode, socket, decode, resolve, session log + fsync, user_message echo, reply): ${viaPod.toFixed(0)} ms = ${(viaPod / baseline).toFixed(1)}x readFile+concat (informational)`,
);
