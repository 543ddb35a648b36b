// A tool call the permission policy asks about, answered at once, against the same call in a pod
// without the policy — each pod in its own process on the scripted provider, interleaved in the
// same run. Timed from the client sending `run` to receiving the call's `tool_result`; for the
// asking pod the time between the client receiving `permission_request` and sending its
// `permission_reply` (the human's part, here the client's own reaction) is taken off. What is
// left over the baseline is the ask's cost: the policy, the ask's session-log entry, the event
// to every client, the reply's validation, the resolution's log entry and broadcast.
// Goal: ≤ 2 ms added at the median (printed where the other benchmarks print their ratio). For
// information: a pod whose policy allows the call by rule, and one bare client round trip.
import { report } from './measure.js';
import { lineSocket } from './support/lineSocket.js';
import { startPodProcess } from './support/startPodProcess.js';

const RUNS = Number(process.env.PERMISSIONS_RUNS ?? 61);
const WARMUP = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (ns) => Number(ns) / 1e6;

const rounds = WARMUP + RUNS;
const script = JSON.stringify(
  Array.from({ length: rounds }, () => [
    { tool_calls: [{ name: 'Read', arguments: { file_path: 'a.txt' } }] },
    { text: 'ok' },
  ]).flat(),
);
const model = { provider: 'scripted', script: 's.json' };
const podWith = (config, name) =>
  startPodProcess({
    name,
    files: { 'a.txt': 'alpha\n', 's.json': script, 'yoi.config.json': JSON.stringify({ model, ...config }) },
  });
const asking = await podWith({ permissions: { rules: [{ tool: 'Read', action: 'ask' }] } }, 'asking');
const none = await podWith({ disablePlugins: ['yoi:permissions'] }, 'none');
const allowing = await podWith({ permissions: { rules: [{ tool: 'Read', action: 'allow' }] } }, 'allowing');

async function connect(pod) {
  const c = await lineSocket(pod.socket);
  const welcome = c.next('"welcome"');
  c.write('{"method":"hello","params":{"protocol_version":2,"client":"bench"}}');
  await welcome;
  return c;
}
const [ca, cn, cw] = await Promise.all([asking, none, allowing].map(connect));

/** One run to `tool_result` (and on to idle); an ask is answered as soon as it arrives. Returns ms, the reaction taken off. */
async function round(c, answer) {
  const result = c.next('"tool_result"');
  const idle = c.next('"status":"idle"');
  const asked = answer ? c.nextLine('"permission_request"') : undefined;
  const t0 = process.hrtime.bigint();
  c.write('{"method":"run","params":{"input":[{"kind":"text","content":"read a.txt"}]}}');
  let reaction = 0n;
  if (asked) {
    const { at, line } = await asked;
    const id = /"id":"([0-9a-f]+)"/.exec(line)[1];
    c.write(`{"method":"permission_reply","params":{"id":"${id}","decision":"allow_once"}}`);
    reaction = process.hrtime.bigint() - at;
  }
  const [t1] = await Promise.all([result, idle]);
  return ms(t1 - t0 - reaction);
}

const withAsk = [];
const without = [];
const byRule = [];
const kinds = [
  [ca, true, withAsk],
  [cn, false, without],
  [cw, false, byRule],
];
for (let i = 0; i < rounds; i++) {
  // The order turns each round, so no pod always runs right after another.
  for (let k = 0; k < kinds.length; k++) {
    const [c, answer, into] = kinds[(i + k) % kinds.length];
    const t = await round(c, answer);
    if (i >= WARMUP) into.push(t);
  }
}
// For information: what one client round trip to the pod costs here (a plugin method on the idle pod).
const trip = [];
for (let i = 0; i < 51; i++) {
  const reply = ca.next(`"request_id":"b${i}"`);
  const t = process.hrtime.bigint();
  ca.write(`{"method":"permission_list","request_id":"b${i}"}`);
  trip.push(ms((await reply) - t));
}
for (const c of [ca, cn, cw]) c.close();
await Promise.all([asking, none, allowing].map((p) => p.stop()));

const [a, n, w] = [median(withAsk), median(without), median(byRule)];
console.log(
  `permissions info: allowed by a rule ${w.toFixed(2)} ms (+${(w - n).toFixed(2)} ms); ask → reply ${a.toFixed(2)} ms vs no policy ${n.toFixed(2)} ms (ratio ${(a / n).toFixed(2)}); one client round trip (permission_list) ${median(trip).toFixed(2)} ms, part of every ask`,
);
const ok = report(
  'permissions: ms added by an ask answered at once, p50 (run → tool_result, the reaction taken off) vs no policy',
  a - n,
  2,
  {
    higherIsBetter: false,
    detail: `${a.toFixed(2)} ms vs ${n.toFixed(2)} ms (median of ${RUNS})`,
  },
);
process.exitCode = ok ? 0 : 1;
