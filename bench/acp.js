// `yoi acp`: ACP `session/prompt` → first `agent_message_chunk` at the editor, against a raw
// client's `run` → first `text_delta` on the pod's socket, p50 over interleaved rounds on the
// same pod (echo provider). The editor is the SDK's ClientSideConnection driving the built
// `yoi acp` over stdio, as Zed does. Goal: ratio ≤ 1.5 (what the ACP hop adds).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ClientSideConnection, PROTOCOL_VERSION, ndJsonStream } from '@agentclientprotocol/sdk';
import { POD_NODE_FLAGS } from '../dist/core/pod/podNodeFlags.js';
import { report } from './measure.js';
import { lineSocket } from './support/lineSocket.js';

const ROUNDS = Number(process.env.ACP_ROUNDS ?? 300);
const WARMUP = 20;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const us = (ns) => Number(ns) / 1000;

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-acp-')));
const project = path.join(root, 'proj');
fs.mkdirSync(project);
const env = { ...process.env, YOI_RUNTIME_DIR: path.join(root, 'run') };
const bin = fileURLToPath(new URL('../bin/run.js', import.meta.url));
// As an editor starts it: the `yoi` executable, whose shebang carries the pod's Node flags.
const agent = spawn(process.execPath, [...POD_NODE_FLAGS, bin, 'acp'], {
  cwd: project,
  env,
  stdio: ['pipe', 'pipe', 'ignore'],
});

let firstChunk;
const conn = new ClientSideConnection(
  () => ({
    sessionUpdate: async (n) => {
      if (n.update.sessionUpdate === 'agent_message_chunk' && firstChunk) {
        firstChunk(process.hrtime.bigint());
        firstChunk = undefined;
      }
    },
    requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
  }),
  ndJsonStream(Writable.toWeb(agent.stdin), Readable.toWeb(agent.stdout)),
);
await conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
const { sessionId, _meta } = await conn.newSession({ cwd: project, mcpServers: [] });
const pod = _meta.yoi.pod;

const raw = await lineSocket(path.join(root, 'run', pod, 'sock'));
const welcome = raw.next('"welcome"');
raw.write('{"method":"hello","params":{"protocol_version":2,"client":"bench"}}');
await welcome;

const viaAcp = [];
const direct = [];
/** Through yoi acp: the editor's prompt to its first chunk. */
async function acpRound(i) {
  const idle = raw.next('"status":"idle"');
  const chunk = new Promise((r) => (firstChunk = r));
  const t0 = process.hrtime.bigint();
  const answered = conn.prompt({ sessionId, prompt: [{ type: 'text', text: `ping ${i}` }] });
  const t1 = await chunk;
  await answered;
  await idle;
  return us(t1 - t0);
}

/** Straight to the pod: run to its first text_delta. */
async function podRound(i) {
  const idle = raw.next('"status":"idle"');
  const delta = raw.next('"text_delta"');
  const t0 = process.hrtime.bigint();
  raw.write(`{"method":"run","params":{"input":[{"kind":"text","content":"ping ${i}"}]}}`);
  const t1 = await delta;
  await idle;
  return us(t1 - t0);
}

for (let i = 0; i < ROUNDS + WARMUP; i++) {
  // Alternating which goes first, so neither always follows the other's idle wait.
  const [a, b] = i % 2 === 0 ? [await acpRound(i), await podRound(i)] : [undefined, await podRound(i)];
  const acp = a ?? (await acpRound(i));
  if (i >= WARMUP) {
    viaAcp.push(acp);
    direct.push(b);
  }
}
raw.close();
agent.stdin.end();
await new Promise((r) => agent.once('exit', r));
spawn(process.execPath, [bin, 'pod', 'stop', '--pod', pod], { cwd: project, env, stdio: 'ignore' }).once('exit', () =>
  fs.rmSync(root, { recursive: true, force: true }),
);

const fmt = (xs) => `p50 ${pct(xs, 50).toFixed(0)} µs, p99 ${pct(xs, 99).toFixed(0)} µs`;
console.log(`acp pod run → first text_delta: ${fmt(direct)}`);
report(
  'acp prompt → first agent_message_chunk (p50 vs pod run → first text_delta p50)',
  pct(viaAcp, 50) / pct(direct, 50),
  1.5,
  { higherIsBetter: false, detail: fmt(viaAcp) },
);
