// Compaction of a 200k-token history (manual `compact` through the socket, scripted summarizer)
// against writing the same history bytes to a new file with fdatasync, measured interleaved in
// the same run. ratio = compaction wall time (`compact` sent → the pod sends compact_done) ÷
// that write (goal ≤ 3): what the lifecycle itself costs (strategy, transcript, tail split,
// atomic session rotation, events) compared with persisting the history once. One pod
// compacts repeatedly, its history set back to the 200k-token one before each compaction; its
// token counts are warm, as in a running pod, which counts items as they arrive. The cold case
// (every item tokenized during the compaction) is printed for information.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PodClient } from '../dist/client/PodClient.js';
import { createHostFromConfig } from '../dist/core/config/createHostFromConfig.js';
import { loadConfig } from '../dist/core/config/loadConfig.js';
import { Pod } from '../dist/core/pod/Pod.js';
import { countItemsTokens, loadTokenizer } from '../dist/core/tokens/estimateTokens.js';
import { defaultPlugins } from '../dist/plugins/index.js';
import { report } from './measure.js';

const TOKENS = Number(process.env.COMPACTION_TOKENS ?? 200_000);
const RUNS = Number(process.env.COMPACTION_RUNS ?? 41);
await loadTokenizer();

// A coding session: requests, replies, and tool rounds reading ~3 KiB of source each.
const code = (i) =>
  Array.from(
    { length: 60 },
    (_, l) =>
      `${String(l + 1).padStart(4)}  export function step${i}_${l}(input: Item[]): number { return input.length * ${l}; }`,
  ).join('\n');
const items = [];
for (let i = 0; (await countItemsTokens(items)) < TOKENS; i++) {
  items.push({
    type: 'message',
    role: 'user',
    content: [{ type: 'text', text: `Please look at src/module${i}.ts and fix the off-by-one in step ${i}.` }],
  });
  items.push({
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text: `Reading src/module${i}.ts first.` }],
  });
  items.push({
    type: 'tool_call',
    call_id: `call_${i}`,
    name: 'Read',
    arguments: JSON.stringify({ path: `src/module${i}.ts` }),
  });
  items.push({ type: 'tool_result', call_id: `call_${i}`, summary: 'Read 60 lines', content: code(i) });
  items.push({
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text: `Fixed step ${i}: the loop now stops at length - 1, and the test passes.` }],
  });
}
const tokens = await countItemsTokens(items);
const sessionId = '01900000-0000-7000-8000-000000000001';
const start = {
  type: 'session_start',
  v: 1,
  ts: 1,
  session_id: sessionId,
  pod_name: 'bench',
  cwd: '/',
  provider: 'scripted',
  model: 's.json',
  system_prompt: 'You help.',
};
const lines = [JSON.stringify(start)];
for (let i = 0; i < items.length; i += 5) {
  lines.push(
    JSON.stringify({
      type: 'user_input',
      ts: 2,
      segments: [{ kind: 'text', content: items[i].content[0].text }],
      items: [items[i]],
    }),
  );
  lines.push(JSON.stringify({ type: 'items', ts: 3, source: 'assistant', items: items.slice(i + 1, i + 3) }));
  lines.push(JSON.stringify({ type: 'items', ts: 4, source: 'tool', items: [items[i + 3]] }));
  lines.push(JSON.stringify({ type: 'items', ts: 5, source: 'assistant', items: [items[i + 4]] }));
  lines.push(JSON.stringify({ type: 'run_end', ts: 6, result: 'finished' }));
}
const bytes = `${lines.join('\n')}\n`;
const summary = {
  usage: { input_tokens: 100_000, output_tokens: 900 },
  text: `## Completed Tasks\n${'- fixed a step\n'.repeat(200)}## Active Task\nnone\n## Key Decisions\n- keep tests\n## User Directives\n- be brief\n## Current Work\nidle\n`,
};

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-cmp-'));
const sessions = path.join(root, '.yoi', 'sessions');
fs.mkdirSync(sessions, { recursive: true });
// As in a running pod, whose log is fdatasynced at every run end.
const fd = fs.openSync(path.join(sessions, `${sessionId}.jsonl`), 'w', 0o600);
fs.writeSync(fd, bytes);
fs.fdatasyncSync(fd);
fs.closeSync(fd);
fs.writeFileSync(path.join(root, 's.json'), JSON.stringify(Array.from({ length: RUNS + 20 }, () => summary)));
fs.writeFileSync(
  path.join(root, 'yoi.config.json'),
  JSON.stringify({ name: 'bench', model: { provider: 'scripted', script: 's.json' }, systemPrompt: 'You help.' }),
);
const env = { ...process.env, YOI_RUNTIME_DIR: path.join(root, 'run') };
const config = await loadConfig({ cwd: root, env, defaultPlugins: defaultPlugins() });
const pod = await Pod.start({ config, host: createHostFromConfig(config), env, resume: true });
const client = await PodClient.connect({ socketPath: pod.paths.socket, clientName: 'bench' });

/**
 * One compaction of the 200k-token history; returns its wall time in ms. Warm: the pod already
 * counted these items (as it does while they arrive); cold: fresh copies, counted now.
 */
async function compactOnce(warm) {
  const history = pod.runtime.history;
  history.length = 0;
  for (const item of warm ? items : structuredClone(items)) history.push(item);
  pod.compactor.tracker.reset();
  if (warm) await countItemsTokens(items);
  // Stopped when the pod sends compact_done (what follows is bookkeeping after the fact).
  let sent = 0;
  const off = pod.bus.subscribe((e) => {
    if (e.event === 'compact_done') sent = performance.now();
  });
  const done = client.waitFor((e) => e.event === 'compact_done' || e.event === 'compact_failed', 60_000);
  const t = performance.now();
  await client.request({ method: 'compact' });
  const end = await done;
  off();
  if (end.event !== 'compact_done') throw new Error(`compaction failed: ${end.data.error}`);
  await pod.runtime.work.settled();
  return sent - t;
}

/** The baseline: the history's bytes written to a new file and fdatasynced. */
let n = 0;
function writeOnce() {
  const file = path.join(root, `copy${n++}.jsonl`);
  const t = performance.now();
  const out = fs.openSync(file, 'w', 0o600);
  fs.writeSync(out, bytes);
  fs.fdatasyncSync(out);
  fs.closeSync(out);
  const ms = performance.now() - t;
  fs.rmSync(file);
  return ms;
}

/** Medians of compactions and baseline writes, interleaved so both see the same machine load. */
async function medians(warm, runs) {
  for (let i = 0; i < 5; i++) {
    writeOnce();
    await compactOnce(warm);
  }
  const writes = [];
  const compactions = [];
  for (let i = 0; i < runs; i++) {
    writes.push(writeOnce());
    compactions.push(await compactOnce(warm));
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { write: median(writes), compaction: median(compactions) };
}

const warm = await medians(true, RUNS);
const cold = await medians(false, 5);
await client.close();
await pod.stop();
fs.rmSync(root, { recursive: true, force: true });

const kib = (Buffer.byteLength(bytes) / 1024).toFixed(0);
const ok = report('compaction 200k tokens', warm.compaction / warm.write, 3, {
  detail: `${items.length} items, ${tokens} tokens, ${kib} KiB; compaction ${warm.compaction.toFixed(1)} ms vs write+fdatasync ${warm.write.toFixed(1)} ms`,
});
console.log(
  `compaction 200k tokens, cold token counts: ratio ${(cold.compaction / cold.write).toFixed(2)} (info) — ${cold.compaction.toFixed(1)} ms`,
);
process.exitCode = ok ? 0 : 1;
