// The session log's hash chain and its listing.
// 1. Appending a run's entries (user input, a 1 KiB reply, usage, run end) and writing them with
//    one write(2), with the chain (SessionLog) vs the same entries serialised and written
//    without it, as the log did before (baseline), interleaved. SHA-256 of a line costs about
//    what serialising it does, so the goal is ≤ 3x; what matters is the absolute cost per run
//    next to a run's latency (bench/latency.js), printed alongside.
// 2. `yoi sessions` (listSessionSummaries) over 100 logs of ~4 MiB vs 100 logs of ~100 KiB:
//    a listing reads each log's first line and tail only, so its cost does not grow with the
//    logs. Goal: ≤ 1.5x. Reading the large logs whole (page-cached) is printed alongside.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SessionLog } from '../dist/core/session/SessionLog.js';
import { listSessionSummaries } from '../dist/core/session/listSessionSummaries.js';
import { report } from './measure.js';

const RUNS = Number(process.env.SESSION_LOG_RUNS ?? 2000);
const ROUNDS = 7;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bench-log-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const message = (role, text) => ({ type: 'message', role, content: [{ type: 'text', text }] });

function runEntries(i) {
  const reply = `reply ${i} `.padEnd(1024, 'x');
  return [
    {
      type: 'user_input',
      ts: Date.now(),
      segments: [{ kind: 'text', content: `question ${i}` }],
      items: [message('user', `question ${i}`)],
    },
    { type: 'items', ts: Date.now(), source: 'assistant', items: [message('assistant', reply)] },
    { type: 'usage', ts: Date.now(), turn: i, input_tokens: 1200 + i, output_tokens: 256 },
    { type: 'run_end', ts: Date.now(), result: 'finished' },
  ];
}

function chained(round) {
  const start = {
    type: 'session_start',
    v: 1,
    ts: Date.now(),
    session_id: `c${round}`,
    pod_name: 'bench',
    cwd: dir,
    provider: 'echo',
    model: 'echo',
    system_prompt: 'You help.',
  };
  const log = SessionLog.create(dir, `c${round}`, start);
  const t = performance.now();
  for (let i = 0; i < RUNS; i++) {
    for (const e of runEntries(i)) log.append(e);
    log.flush();
  }
  const ms = performance.now() - t;
  log.close();
  return ms;
}

function plain(round) {
  const fd = fs.openSync(path.join(dir, `p${round}.jsonl`), 'a', 0o600);
  const t = performance.now();
  for (let i = 0; i < RUNS; i++) {
    const pending = runEntries(i).map((e) => `${JSON.stringify(e)}\n`);
    fs.writeSync(fd, pending.join(''));
  }
  const ms = performance.now() - t;
  fs.closeSync(fd);
  return ms;
}

const a = [];
const b = [];
chained('w');
plain('w');
for (let r = 0; r < ROUNDS; r++) {
  a.push(chained(r));
  b.push(plain(r));
}
const perRun = (ms) => (ms * 1000) / RUNS;
report('session-log: append + write of a run, chained vs plain', median(a) / median(b), 3, {
  higherIsBetter: false,
  detail: `${perRun(median(a)).toFixed(1)} vs ${perRun(median(b)).toFixed(1)} µs per run (+${(perRun(median(a)) - perRun(median(b))).toFixed(1)} µs)`,
});

// Listing: the same number of logs, small (~100 KiB, above the size read whole) and large
// (~4 MiB), written by the real writer; listed alternately.
function writeLogs(sub, runsPerLog) {
  const d = path.join(dir, sub);
  for (let s = 0; s < 100; s++) {
    const id = `0190${String(s).padStart(4, '0')}-0000-7000-8000-000000000000`;
    const log = SessionLog.create(d, id, {
      type: 'session_start',
      v: 1,
      ts: Date.now(),
      session_id: id,
      pod_name: `pod${s % 5}`,
      cwd: dir,
      provider: 'echo',
      model: 'echo',
      system_prompt: 'You help.',
    });
    for (let i = 0; i < runsPerLog; i++) for (const e of runEntries(i)) log.append(e);
    log.close();
  }
  const files = fs.readdirSync(d).map((f) => path.join(d, f));
  return { d, files, mib: files.reduce((n, f) => n + fs.statSync(f).size, 0) / 1024 ** 2 };
}
const small = writeLogs('small', 45);
const large = writeLogs('large', 1800);
const timeList = (d) => {
  const t = performance.now();
  const { sessions } = listSessionSummaries(d);
  if (sessions.length !== 100) throw new Error(`listed ${sessions.length} of 100`);
  return performance.now() - t;
};
const ls = [];
const ll = [];
const whole = [];
for (let r = 0; r < 7; r++) {
  ls.push(timeList(small.d));
  ll.push(timeList(large.d));
  const t = performance.now();
  for (const f of large.files) fs.readFileSync(f);
  whole.push(performance.now() - t);
}
report('session-log: yoi sessions, 100 logs of 4 MiB vs of 100 KiB', median(ll) / median(ls), 1.5, {
  higherIsBetter: false,
  detail: `${median(ll).toFixed(1)} vs ${median(ls).toFixed(1)} ms (${large.mib.toFixed(0)} vs ${small.mib.toFixed(0)} MiB); reading the large logs whole: ${median(whole).toFixed(1)} ms`,
});
fs.rmSync(dir, { recursive: true, force: true });
