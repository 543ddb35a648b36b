// Two goals of the MCP layer, each against a baseline measured in the same run:
// 1. An MCP tool call through the pod (from the pod's first beforeToolCall tap through the SDK
//    client, the server, the result's conversion and afterToolCall, to the tool_result's
//    broadcast) vs the same call made with the SDK client directly, against its own
//    server-everything process. ratio = pod / direct (goal ≤ 1.3).
// 2. `yoi pod start` until it prints `listening`, with 3 stdio MCP servers configured vs none
//    (servers start after listening, so the goal is "not delayed": ratio ≤ 1.1).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHostFromConfig } from '../dist/core/config/createHostFromConfig.js';
import { loadConfig } from '../dist/core/config/loadConfig.js';
import { Pod } from '../dist/core/pod/Pod.js';
import { definePlugin } from '../dist/core/plugin/definePlugin.js';
import { STAGE_EARLY } from '../dist/core/plugin/stages.js';
import { defaultPlugins } from '../dist/plugins/index.js';
import { report } from './measure.js';
import { lineSocket } from './support/lineSocket.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const EVERYTHING = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const server = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
const MESSAGE = 'x'.repeat(4096);
const CALLS = 20;
const RUNS = Number(process.env.MCP_RUNS ?? 201);
// Uncounted batches of each side first: a pod serves many calls in one process, and the goal is
// the cost of its path, not how soon V8 optimises it. Medians of 50 batches fall on both sides
// until ~150 (the SDK alone) and ~250 (the pod: more functions, each optimised after its own
// calls), then stay flat; 30 left the counted batches mid-way and the ratio 1.1–1.6 from run to run.
// The first 50 batches of each side are still printed (for information).
const WARMUP = Number(process.env.MCP_WARMUP ?? 300);
const COLD = Math.min(50, WARMUP);
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// --- 1. a tool call through the pod vs the SDK client directly ---
// Each sample is one model reply with CALLS echo calls (the pod runs them concurrently), against
// the same CALLS calls made concurrently with the SDK client: both keep their server busy, so
// neither side pays for waking an idle process more often than the other.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bench-mcp-'));
const reply = {
  tool_calls: Array.from({ length: CALLS }, () => ({ name: 'mcp__everything__echo', arguments: { message: MESSAGE } })),
};
const script = [];
for (let r = 0; r < RUNS + WARMUP + 2; r++) script.push(reply, { text: 'done' });
fs.writeFileSync(path.join(dir, 'script.json'), JSON.stringify(script));
fs.writeFileSync(
  path.join(dir, 'yoi.config.json'),
  JSON.stringify({ model: { provider: 'scripted', script: 'script.json' }, mcp: { servers: { everything: server } } }),
);
const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };
const loaded = await loadConfig({ cwd: dir, env, defaultPlugins: defaultPlugins() });
// The calls start where the pod starts handling them (the first beforeToolCall tap) and end when
// the pod broadcasts the last tool_result (hooks, the SDK round trips, conversion, afterToolCall,
// output limits): the ratio. Until a client has read it from the socket (the bus batch, the
// session log write, encoding, decoding — costs of every tool, not of MCP) is shown for information.
let batchStart = 0;
/** Resolved when the observer has read the reply's last `tool_call_done` (set per run). */
let turnRead = Promise.resolve();
const clock = definePlugin({
  name: 'bench:clock',
  apply(host) {
    host.hooks.beforeToolCall.tapPromise({ name: 'bench:clock', stage: STAGE_EARLY }, async () => {
      // Not before the observing client has read the turn's own events (the 20 calls' arguments):
      // their session log write, encoding and delivery are work of the LLM turn, not of the calls.
      if (!batchStart) await turnRead;
      batchStart ||= performance.now();
      return undefined;
    });
  },
});
// `yoi:mcp` is a default plugin: the servers come from the config's `mcp` section.
const config = { ...loaded, plugins: [clock(), ...defaultPlugins()] };
const pod = await Pod.start({ config, host: createHostFromConfig(config), name: 'bench-mcp', env });
// The observing client reads lines as bytes, without decoding them: it shares this process with
// the pod, and decoding the reply's events (the 20 calls' arguments, ~250 KiB, read during the
// calls) would take the pod's thread and fill its young generation in the window measured —
// work a client does in its own process (yoi attach), not the pod.
const observer = await lineSocket(pod.paths.socket, { bytes: true });
const welcomed = observer.next('"welcome"');
observer.write('{"method":"hello","params":{"protocol_version":2,"client":"bench"}}');
await welcomed;
const echoed = Buffer.from(`"output":${JSON.stringify(`Echo: ${MESSAGE}`)}`);
const TOOL_RESULT = Buffer.from('{"event":"tool_result"');
const TOOL_CALL_DONE = Buffer.from('{"event":"tool_call_done"');
const statePath = path.join(dir, 'run', 'bench-mcp', 'mcp.json');
while (
  !fs.existsSync(statePath) ||
  !JSON.parse(fs.readFileSync(statePath, 'utf8')).servers.every((s) => s.state === 'ready')
) {
  await new Promise((r) => setTimeout(r, 20));
}

let lastBroadcast = 0;
pod.bus.subscribe((e) => {
  if (e.event === 'tool_result') lastBroadcast = performance.now();
});
const readMs = [];

/** One run: CALLS concurrent calls; returns ms from the first call handled to the last result broadcast. */
async function podBatch() {
  let results = 0;
  let errors = 0;
  let last = 0;
  let callsRead = 0;
  let markRead;
  let unread;
  batchStart = 0;
  // Bounded: a reply whose calls the observer never sees fails the benchmark, not hangs it.
  turnRead = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject((unread = new Error(`the observer read ${callsRead} of ${CALLS} calls`))),
      10_000,
    );
    markRead = () => resolve(clearTimeout(timer));
  });
  const off = observer.onLine((line) => {
    if (TOOL_CALL_DONE.compare(line, 0, TOOL_CALL_DONE.length) === 0 && ++callsRead === CALLS) markRead();
    if (TOOL_RESULT.compare(line, 0, TOOL_RESULT.length) !== 0) return;
    results++;
    last = performance.now();
    if (!line.includes(echoed) || !line.includes('"is_error":false')) errors++;
  });
  const ended = observer.nextLine('"event":"run_end"');
  observer.write('{"method":"run","params":{"input":[{"kind":"text","content":"go"}]}}');
  const end = await ended;
  off();
  if (unread) throw unread;
  if (!end.line.includes('"result":"finished"') || errors > 0 || results !== CALLS)
    throw new Error(`pod run: ${end.line}, ${errors} errors, ${results} results`);
  readMs.push(last - batchStart);
  return lastBroadcast - batchStart;
}

const direct = new Client({ name: 'bench', version: '1' });
await direct.connect(new StdioClientTransport(server));
async function directBatch() {
  const t = performance.now();
  const all = await Promise.all(
    Array.from({ length: CALLS }, () => direct.callTool({ name: 'echo', arguments: { message: MESSAGE } })),
  );
  const ms = performance.now() - t;
  if (all.some((r) => r.content[0].text !== `Echo: ${MESSAGE}`)) throw new Error('direct: wrong answer');
  return ms;
}

const coldPod = [];
const coldDirect = [];
for (let r = 0; r < WARMUP; r++) {
  const pb = await podBatch();
  const db = await directBatch();
  if (r < COLD) {
    coldPod.push(pb);
    coldDirect.push(db);
  }
}
readMs.length = 0;
const podTimes = [];
const directTimes = [];
for (let r = 0; r < RUNS; r++) {
  directTimes.push(await directBatch());
  podTimes.push(await podBatch());
}
const p = med(podTimes);
const d = med(directTimes);
report('mcp tool calls via pod / direct SDK client', p / d, 1.3, {
  detail: `median of ${RUNS} batches of ${CALLS} concurrent 4 KiB echo calls after ${WARMUP} uncounted: pod ${p.toFixed(1)} ms (read by a client: ${med(readMs).toFixed(1)} ms), direct ${d.toFixed(1)} ms`,
});
if (COLD > 0) {
  const cp = med(coldPod);
  const cd = med(coldDirect);
  console.log(
    `mcp tool calls, the first ${COLD} batches (info): pod ${cp.toFixed(1)} ms, direct ${cd.toFixed(1)} ms, ratio ${(cp / cd).toFixed(2)}`,
  );
}
observer.close();
await direct.close();
await pod.stop();

// --- 2. pod start with 3 stdio servers vs none ---
const bin = path.join(root, 'bin/run.js');
const { POD_NODE_FLAGS } = await import('../dist/core/pod/podNodeFlags.js');
function project(servers) {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bm-'));
  const mcp = servers ? `, mcp: { servers: ${JSON.stringify(servers)} }` : '';
  fs.writeFileSync(
    path.join(d, 'yoi.config.ts'),
    `import { defaultPlugins } from 'yoi';\nexport default { plugins: defaultPlugins()${mcp} };\n`,
  );
  return d;
}
const three = { a: server, b: server, c: server };
const dirs = { none: project(undefined), three: project(three) };
let seq = 0;
/**
 * Starts a pod and returns how long it took to listen: from the spawn to the moment its status.json
 * was written (synchronously, as it starts listening), read from the file's mtime, so the servers
 * starting right after do not slow down this process's reading of `listening` and blur the measure.
 */
async function listeningMs(which) {
  const name = `b${seq++}`;
  const cwd = dirs[which];
  const runtime = path.join(cwd, 'run');
  const t0 = Date.now();
  const child = spawn(process.execPath, [...POD_NODE_FLAGS, bin, 'pod', 'start', '--name', name], {
    cwd,
    env: { ...process.env, YOI_RUNTIME_DIR: runtime },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (/^listening /m.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`pod exited with ${code}`)));
  });
  const ms = fs.statSync(path.join(runtime, name, 'status.json')).mtimeMs - t0;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return ms;
}
// Interleaved so both see the same load; the first start of each warms the disk cache.
await listeningMs('none');
await listeningMs('three');
const noneMs = [];
const threeMs = [];
for (let i = 0; i < 7; i++) {
  noneMs.push(await listeningMs('none'));
  threeMs.push(await listeningMs('three'));
}
const n = med(noneMs);
const t3 = med(threeMs);
report('pod start until listening, 3 MCP servers / none', t3 / n, 1.1, {
  detail: `median: 3 servers ${t3.toFixed(0)} ms, none ${n.toFixed(0)} ms (7 starts each)`,
});
for (const d of [dir, ...Object.values(dirs)]) fs.rmSync(d, { recursive: true, force: true });
