// Two costs of the plugin API, each against a baseline measured in the same run:
// 1. Pod start with the default plugins vs with only the offline echo provider (the least a pod
//    can run with): `yoi pod start` from the process start to `listening`, as a user starts a
//    pod, interleaved (goal ≤ 1.1). Also in-process, Pod.start → listening and stop, for
//    information: there the default plugins' own work shows alone — yoi:pod-tree registering the
//    pod's scope in scope.lock and releasing it (a lock directory and a rename each way, the
//    rename ~0.4 ms when ext4 replaces a file) — against a baseline of ~2 ms.
// 2. Resolving a run's input of 2,000 segments of declared kinds (text, paste, knowledge_ref,
//    and a third-party kind declared with defineSegmentKind) with the typed-kind validation vs
//    the same resolvers with no kinds declared (no validation: what resolution cost before typed
//    kinds). Goal ≤ 1.1.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { createHostFromConfig } from '../dist/core/config/createHostFromConfig.js';
import { loadConfig } from '../dist/core/config/loadConfig.js';
import { Pod } from '../dist/core/pod/Pod.js';
import { resolveSegments } from '../dist/core/pipeline/resolveSegments.js';
import { SegmentKindRegistry } from '../dist/core/segments/SegmentKindRegistry.js';
import { defineSegmentKind, definePlugin } from '../dist/index.js';
import { defaultPlugins } from '../dist/plugins/index.js';
import { medianMs, report } from './measure.js';
import { spawnPod } from './support/startPodProcess.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bench-host-'));
fs.mkdirSync(path.join(dir, '.yoi', 'knowledge'), { recursive: true });
fs.writeFileSync(path.join(dir, '.yoi', 'knowledge', 'style.md'), '---\ntitle: Style\n---\nShort lines.\n');
const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };

const TicketKind = defineSegmentKind({
  kind: 'ticket_ref',
  schema: z.object({ kind: z.literal('ticket_ref'), id: z.string().regex(/^[A-Z]+-\d+$/) }),
  sigil: '!',
  field: 'id',
  description: 'a ticket',
});
const tickets = definePlugin({
  name: 'bench:tickets',
  apply(api) {
    api
      .segmentKind(TicketKind)
      .resolve(async (segment) => ({ type: 'context', label: `Ticket: ${segment.id}`, text: `ticket ${segment.id}` }));
  },
});

const base = await loadConfig({ cwd: dir, env, defaultPlugins: defaultPlugins() });
const echoOnly = defaultPlugins().filter((p) => p.name === 'yoi:echo');
let n = 0;
async function startStop(plugins) {
  const config = { ...base, plugins };
  const pod = await Pod.start({ config, host: createHostFromConfig(config), name: `b${n++}`, env });
  await pod.stop();
}
const full = defaultPlugins();
const withDefaults = [];
const withNone = [];
for (let round = 0; round < 3; round++) {
  withDefaults.push(await medianMs(() => startStop([...full]), { runs: 7, warmup: 1 }));
  withNone.push(await medianMs(() => startStop(echoOnly), { runs: 7, warmup: 1 }));
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `plugin-host in-process Pod.start + stop, default plugins vs the echo provider alone (info): ratio ${(med(withDefaults) / med(withNone)).toFixed(2)} — defaults ${med(withDefaults).toFixed(1)} ms (${full.length} plugins), echo alone ${med(withNone).toFixed(1)} ms`,
);

// The same as a user starts a pod: a project without a config (the defaults) and one whose
// config leaves out every built-in but the echo provider.
const projects = {};
for (const which of ['defaults', 'echo']) {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `yoi-bench-host-${which}-`)));
  if (which === 'echo')
    fs.writeFileSync(
      path.join(d, 'yoi.config.json'),
      JSON.stringify({ disablePlugins: full.map((p) => p.name).filter((name) => name !== 'yoi:echo') }),
    );
  projects[which] = d;
}
const START_RUNS = Number(process.env.PLUGIN_HOST_STARTS ?? 11);
const started = { defaults: [], echo: [] };
for (let i = 0; i < START_RUNS + 2; i++) {
  for (const which of i % 2 ? ['defaults', 'echo'] : ['echo', 'defaults']) {
    const t = performance.now();
    const pod = await spawnPod(projects[which], ['--name', `s${i}`]);
    const ms = performance.now() - t;
    await pod.stop();
    if (i >= 2) started[which].push(ms);
  }
}
for (const d of Object.values(projects)) fs.rmSync(d, { recursive: true, force: true });
report(
  'plugin-host: yoi pod start to listening, default plugins vs the echo provider alone',
  med(started.defaults) / med(started.echo),
  1.1,
  {
    higherIsBetter: false,
    detail: `defaults ${med(started.defaults).toFixed(0)} ms (${full.length} plugins), echo alone ${med(started.echo).toFixed(0)} ms, median of ${START_RUNS}`,
  },
);

// Resolution with and without the kinds declared.
const config = { ...base, plugins: [...defaultPlugins(), tickets()] };
const pod = await Pod.start({ config, host: createHostFromConfig(config), name: 'resolve', env });
const input = [];
for (let i = 0; i < 500; i++) {
  input.push({ kind: 'text', content: `line ${i} of the request` });
  input.push({ kind: 'paste', id: i, chars: 20, lines: 1, content: 'pasted text, twenty.' });
  input.push({ kind: 'knowledge_ref', slug: 'style' });
  input.push({ kind: 'ticket_ref', id: `YOI-${i}` });
}
const undeclared = new SegmentKindRegistry();
const resolve = async (kinds) => {
  const signal = new AbortController().signal;
  const r = await resolveSegments(pod.host.hooks, kinds, input, (index) => ({ ...pod.info, index, signal, input }));
  if (r.alerts.length > 0 || r.contextItems.length !== 1000)
    throw new Error(`${r.contextItems.length} items; ${r.alerts.slice(0, 3).join('; ')}`);
};
const typed = [];
const plain = [];
// Alternated, which goes first each round: the one that runs second inherits the first's GC debt.
for (let round = 0; round < 6; round++) {
  const sides = [
    async () => typed.push(await medianMs(() => resolve(pod.host.segmentKinds), { runs: 9, warmup: 2 })),
    async () => plain.push(await medianMs(() => resolve(undeclared), { runs: 9, warmup: 2 })),
  ];
  if (round % 2) sides.reverse();
  for (const side of sides) await side();
}
await pod.stop();
fs.rmSync(dir, { recursive: true, force: true });
report('plugin-host: resolving 2,000 segments, typed-kind validation vs none', med(typed) / med(plain), 1.1, {
  higherIsBetter: false,
  detail: `validated ${med(typed).toFixed(1)} ms, unvalidated ${med(plain).toFixed(1)} ms`,
});
