// Soak: YOI_SOAK_MINUTES (default 30) of random runs, notifies, cancels, pauses, resumes,
// compactions, history reads and reconnects from YOI_SOAK_CLIENTS (default 8) clients against one
// pod process on the scripted provider (seeded: YOI_SOAK_SEED). Checks at the end:
// - RSS flat: the median of the last window's samples ÷ the median of the first window's (the
//   window is a tenth of the run, the first one starting after a warm-up as long), goal ≤ 1.2;
// - every run exactly one terminal event (an observer follows every broadcast; see
//   support/runLedger.js), every accepted `run` one `user_message`, every compaction one end,
//   and the session logs hold one `run_end` per terminal event;
// - the session log replays to the same history (`yoi history --json` against `yoi sessions
//   show <id> --json`), and again after a restart with `--resume`;
// - every request answered (none timed out), and the pod kept answering (latencies printed).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { PodClient } from '../dist/client/PodClient.js';
import { report } from './measure.js';
import { runLedger } from './support/runLedger.js';
import { seededRandom } from './support/seededRandom.js';
import { soakFiles, soakScript } from './support/soakScript.js';
import { rssOf, spawnPod } from './support/startPodProcess.js';

const MINUTES = Number(process.env.YOI_SOAK_MINUTES ?? 30);
const CLIENTS = Number(process.env.YOI_SOAK_CLIENTS ?? 8);
const SEED = Number(process.env.YOI_SOAK_SEED ?? 1);
const DURATION = MINUTES * 60_000;
const WINDOW = Math.max(10_000, DURATION / 10);
const REQUEST_TIMEOUT = 30_000;
const BIN = new URL('../bin/run.js', import.meta.url).pathname;

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-soak-')));
for (const [rel, content] of Object.entries(soakFiles())) {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), content);
}
// About 40 LLM requests a second at most; the rest (if any) is answered like echo.
fs.writeFileSync(path.join(dir, 's.json'), JSON.stringify(soakScript(seededRandom(SEED), Math.ceil(MINUTES * 2400))));
fs.writeFileSync(
  path.join(dir, 'yoi.config.json'),
  JSON.stringify({
    name: 'soak',
    model: { provider: 'scripted', script: 's.json' },
    compaction: { threshold: 12_000, retainedTokens: 3000 },
  }),
);
const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };
const cli = (args) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`yoi ${args.join(' ')} failed: ${r.stderr.trim()}`);
  return r.stdout;
};

const pod = await spawnPod(dir, []);
const connect = (name, onEvent) =>
  PodClient.connect({
    socketPath: pod.socket,
    clientName: name,
    requestTimeoutMs: REQUEST_TIMEOUT,
    ...(onEvent ? { onEvent } : {}),
  });
const ledger = runLedger();
const observer = await connect('soak/observer', ledger.onEvent);

const rss = [];
const t0 = performance.now();
const sampler = setInterval(() => rss.push({ t: performance.now() - t0, bytes: rssOf(pod.pid) }), 1000);

const counts = {};
const latencies = [];
let acceptedRuns = 0;
let unanswered = 0;
const count = (key) => (counts[key] = (counts[key] ?? 0) + 1);

async function request(client, method, action) {
  const t = performance.now();
  try {
    await client.request(method);
    count(`${action} ok`);
    if (method.method === 'run') acceptedRuns++;
  } catch (e) {
    if (e.code === 'YOI_ERR_TIMEOUT' || e.code === 'YOI_ERR_CONNECTION') unanswered++;
    count(
      `${action} ${e.code === 'YOI_ERR_TIMEOUT' || e.code === 'YOI_ERR_CONNECTION' ? e.code : e.message.split(':')[0]}`,
    );
  } finally {
    latencies.push(performance.now() - t);
  }
}

function input(rand) {
  const segments = [
    {
      kind: 'text',
      content: `task ${rand.int(0, 1e6)}: ${rand.pick(['look at', 'fix', 'explain'])} src/module${rand.int(0, 5)}.ts`,
    },
  ];
  if (rand.chance(0.2)) {
    const content = 'pasted line\n'.repeat(rand.int(10, 1500));
    segments.push({
      kind: 'paste',
      id: rand.int(1, 1000),
      chars: content.length,
      lines: content.split('\n').length,
      content,
    });
  }
  return segments;
}

async function actor(i) {
  const rand = seededRandom(SEED * 1000 + i);
  let client = await connect(`soak/${i}`);
  const end = t0 + DURATION;
  while (performance.now() < end) {
    await new Promise((r) => setTimeout(r, rand.int(0, 300)));
    const r = rand.next();
    if (r < 0.3) await request(client, { method: 'run', params: { input: input(rand) } }, 'run');
    else if (r < 0.45)
      await request(
        client,
        { method: 'notify', params: { message: `note ${rand.int(0, 1e6)} from client ${i}` } },
        'notify',
      );
    else if (r < 0.55) await request(client, { method: 'cancel' }, 'cancel');
    else if (r < 0.66) await request(client, { method: 'pause' }, 'pause');
    else if (r < 0.8) await request(client, { method: 'resume' }, 'resume');
    else if (r < 0.82) await request(client, { method: 'compact' }, 'compact');
    else if (r < 0.97) await request(client, { method: 'get_history' }, 'get_history');
    else {
      await client.close();
      client = await connect(`soak/${i}`);
      count('reconnect');
    }
  }
  await client.close();
}

await Promise.all(Array.from({ length: CLIENTS }, (_, i) => actor(i)));
clearInterval(sampler);

// Bring the pod to rest: abandon a paused run, cancel a live one, let a compaction end.
for (let tries = 0; !ledger.idle() && tries < 100; tries++) {
  if (observer.status === 'paused' || observer.status === 'running')
    await observer.request({ method: 'cancel' }).catch(() => undefined);
  await new Promise((r) => setTimeout(r, 100));
}

const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
};
check(ledger.idle(), `the pod did not come to rest (status ${observer.status})`);
check(ledger.violations.length === 0, `terminal events: ${ledger.violations.join('; ')}`);
check(ledger.runs === ledger.terminals, `${ledger.runs} runs but ${ledger.terminals} terminal events`);
check(
  ledger.userMessages === acceptedRuns,
  `${acceptedRuns} accepted runs but ${ledger.userMessages} user_message events`,
);
check(
  ledger.compactions === ledger.compacted + ledger.compactFailed,
  `${ledger.compactions} compactions, ${ledger.compacted + ledger.compactFailed} ended`,
);
check(
  ledger.seqGaps === 0 && ledger.lagged === 0,
  `the observer missed events (${ledger.seqGaps} gaps, ${ledger.lagged} lagged)`,
);
check(unanswered === 0, `${unanswered} requests not answered within ${REQUEST_TIMEOUT} ms`);

// The logs: one run_end per terminal event, across every session the compactions rotated to.
const sessionDir = path.join(dir, '.yoi', 'sessions');
const logs = fs.readdirSync(sessionDir).filter((f) => f.endsWith('.jsonl'));
let runEnds = 0;
for (const f of logs) {
  for (const line of fs.readFileSync(path.join(sessionDir, f), 'utf8').split('\n'))
    if (line.includes('"type":"run_end"')) runEnds++;
}
check(
  runEnds === ledger.terminals,
  `${ledger.terminals} terminal events but ${runEnds} run_end entries in ${logs.length} logs`,
);

const sessionId = (await connect('soak/check')).welcome.session_id;
const live = JSON.parse(cli(['history', '--json', '--pod', 'soak']));
const replayed = JSON.parse(cli(['sessions', 'show', sessionId, '--json']));
check(replayed.chain === 'intact', `the live session's chain is ${replayed.chain}`);
check(
  isDeepStrictEqual(live, replayed.history),
  `the log of ${sessionId} does not replay to the live history (${live.length} vs ${replayed.history.length} items)`,
);
await observer.close();
const exit = await pod.stop();
check(exit === 0, `the pod exited with ${exit}: ${pod.stderr().trim()}`);
const again = await spawnPod(dir, ['--resume']);
const resumed = JSON.parse(cli(['history', '--json', '--pod', 'soak']));
check(isDeepStrictEqual(resumed, live), `--resume restored ${resumed.length} items, the pod had ${live.length}`);
await again.stop();
check(fs.readdirSync(dir).filter((f) => f.endsWith('.yoi-tmp')).length === 0, 'temp files left in the project');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const first = rss.filter((s) => s.t >= WINDOW && s.t < 2 * WINDOW).map((s) => s.bytes);
const last = rss.filter((s) => s.t >= DURATION - WINDOW).map((s) => s.bytes);
const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
const sorted = [...latencies].sort((a, b) => a - b);
const p = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
const actions = Object.values(counts).reduce((a, b) => a + b, 0);
console.log(
  `soak: ${MINUTES} min, ${CLIENTS} clients, seed ${SEED}: ${actions} actions (${Object.entries(counts)
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')})`,
);
console.log(
  `soak: ${ledger.runs} runs, ${ledger.terminals} terminal events, ${ledger.compactions} compactions (${ledger.compacted} done, ${ledger.compactFailed} failed: ${JSON.stringify(ledger.failedBecause)}), ${logs.length} session logs, ${live.length} items in the final history`,
);
console.log(
  `soak: request latency p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${sorted.at(-1).toFixed(1)} ms; RSS min ${mb(Math.min(...rss.map((s) => s.bytes)))}, max ${mb(Math.max(...rss.map((s) => s.bytes)))}`,
);
for (const f of failures) console.log(`soak: FAILED ${f}`);
if (failures.length) process.exitCode = 1;
report('soak: RSS, median of the last window ÷ the first', median(last) / median(first), 1.2, {
  detail: `${mb(median(first))} → ${mb(median(last))} (windows of ${(WINDOW / 60_000).toFixed(1)} min; the first after ${(WINDOW / 60_000).toFixed(1)} min of warm-up)`,
});
fs.rmSync(dir, { recursive: true, force: true });
