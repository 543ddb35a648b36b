// yoi against the peers' CLIs (Codex, Claude Code, opencode, pi), all configured against one
// local fake LLM server (bench/support/peerLlmServer.js), interleaved round by round so every
// tool sees the same load. Opt-in: YOI_BENCH_PEERS=1 (it installs the peers from npm into
// ~/.cache/yoi-bench-peers on first use; never in CI). Rows, medians and ranges of PEERS_RUNS
// (default 7) after 2 warm-up rounds (PEERS_ONLY=Codex,pi: against those peers only):
// - `--version`, process start → exit, the ratio of its median to `node -e 0`'s;
// - one prompt, process start → the first reply byte on stdout: `yoi send` to a running pod
//   (and the raw socket client, bench/support/rawPodClient.js), each peer's one-shot mode;
// - cold: yoi's `pod start` + `send` → first byte, against each peer's one-shot;
// - a 2,000-chunk reply, the server's first byte → the last byte on the tool's stdout, and the
//   peak RSS of the whole process tree meanwhile (yoi: pod + `send`);
// - idle RSS of the long-running form (yoi pod, Codex app-server, Claude Code stream-json, pi
//   rpc, opencode serve), once it answered a first request (PEERS_IDLE_RUNS, default 3).
// Goals: cold first byte ≤ 1.7x Codex's cold exec; draining ≤ Codex's.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './measure.js';
import { startPeerLlmServer, MODEL } from './support/peerLlmServer.js';
import { installPeers, peers as peerTools } from './support/peerTools.js';
import { spawnPod } from './support/startPodProcess.js';
import { treeRss } from './support/treeRss.js';

if (process.env.YOI_BENCH_PEERS !== '1') {
  console.log('skipped: set YOI_BENCH_PEERS=1');
  process.exit(0);
}
const RUNS = Number(process.env.PEERS_RUNS ?? 7);
const IDLE_RUNS = Number(process.env.PEERS_IDLE_RUNS ?? 3);
const WARMUP = 2;
const CHUNKS = 2000;
const TIMEOUT_MS = 120_000;
const yoiBin = fileURLToPath(new URL('../bin/run.js', import.meta.url));
const rawClient = fileURLToPath(new URL('support/rawPodClient.js', import.meta.url));
const sampler = fileURLToPath(new URL('support/rssSampler.js', import.meta.url));

installPeers();
const server = await startPeerLlmServer();
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bench-peers-'));
// Removed however the bench ends (a peer's HOME and config live there).
process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
// PEERS_ONLY=Codex,pi measures yoi against those peers only (names as in the table).
const only = process.env.PEERS_ONLY?.split(',').map((n) => n.trim().toLowerCase());
const peers = peerTools(root, server.origin, { opencodePort: await freePort() }).filter(
  (p) => !only || only.includes(p.name.toLowerCase()),
);

// yoi: one project for the pod that stays up, one for the cold starts (one pod per scope).
const yoiProject = (name) => {
  const d = path.join(root, name);
  fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(
    path.join(d, 'yoi.config.json'),
    JSON.stringify({
      model: { provider: 'openai-compatible', baseURL: `${server.origin}/v1`, model: MODEL, maxRetries: 0 },
    }),
  );
  return { dir: d, env: { ...process.env, YOI_RUNTIME_DIR: path.join(d, 'run') } };
};
const warm = yoiProject('yoi-warm');
const cold = yoiProject('yoi-cold');
const warmPod = await spawnPod(warm.dir, ['--name', 'warm']);
const send = (prompt) => [
  process.execPath,
  [yoiBin, 'send', '--quiet', '--pod', 'warm', prompt],
  { cwd: warm.dir, env: warm.env },
];

/**
 * Spawns `cmd args`; resolves with ms from the spawn to the first stdout byte (`first`) and to
 * the exit, the instants (performance.now()) of the first stdout byte and of its end
 * (`firstAt`, `end`), and the stdout bytes.
 * `onSpawn(child)` runs at once (to sample its RSS).
 */
function timed(cmd, args, { cwd, env, onSpawn } = {}) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    onSpawn?.(child);
    let first;
    let endAt;
    let bytes = 0;
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    let firstAt;
    child.stdout.on('data', (d) => {
      firstAt ??= performance.now();
      first ??= firstAt - t;
      bytes += d.length;
    });
    child.stdout.once('end', () => (endAt = performance.now()));
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code !== 0)
        reject(
          new Error(`${path.basename(cmd)} ${args.join(' ')} exited ${code}: ${stderr.trim().split('\n').at(-1)}`),
        );
      else resolve({ first, firstAt, end: endAt, exit: performance.now() - t, bytes });
    });
  });
}

/** The peak summed RSS of the trees of the children passed to `add`, sampled by rssSampler.js. */
function rssPeak() {
  const child = spawn(process.execPath, [sampler], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const done = new Promise((r) => child.once('close', () => r(Number(out.trim()))));
  return { add: (pid) => child.stdin.write(`${pid}\n`), end: () => (child.stdin.end('end\n'), done) };
}

const results = new Map(); // `${row}|${tool}` → numbers
const push = (row, tool, value) => {
  const k = `${row}|${tool}`;
  if (!results.has(k)) results.set(k, []);
  results.get(k).push(value);
};
const failed = new Map(); // tool → first error
const attempt = async (tool, fn) => {
  if (failed.has(tool)) return;
  try {
    await fn();
  } catch (e) {
    failed.set(tool, e.message);
  }
};

const node = () => timed(process.execPath, ['-e', '0']);
/** `yoi pod start` + `yoi send` → first byte of the reply (and → listening), then the pod stopped. */
const coldYoi = async () => {
  const t = performance.now();
  const pod = await spawnPod(cold.dir, ['--name', 'cold']);
  try {
    const sentAt = performance.now();
    const r = await timed(process.execPath, [yoiBin, 'send', '--quiet', '--pod', 'cold', 'hi'], {
      cwd: cold.dir,
      env: cold.env,
    });
    return { first: sentAt - t + r.first, ready: sentAt - t };
  } finally {
    await pod.stop();
  }
};

/** One 2,000-chunk reply through `run`: server's first byte → stdout's last, and the tree's peak RSS. */
async function drain(cmd, args, opts, extraRoots = []) {
  const peak = rssPeak();
  for (const pid of extraRoots) peak.add(pid);
  const r = await timed(cmd, args, { ...opts, onSpawn: (c) => peak.add(c.pid) });
  const reply = server.lastReply(CHUNKS);
  const rss = await peak.end();
  if (!reply || r.bytes < CHUNKS * 5)
    throw new Error(`the 2,000-chunk reply did not come through (${r.bytes} bytes on stdout)`);
  return { ms: r.end - reply.firstByteAt, firstMs: r.firstAt - reply.firstByteAt, rss };
}

const chunks = Array.from({ length: CHUNKS }, (_, i) => `tok${i} `);
try {
  for (let round = 0; round < WARMUP + RUNS; round++) {
    const keep = round >= WARMUP;
    const n = await node();
    if (keep) push('node', 'node -e 0', n.exit);
    await attempt('yoi', async () => {
      const v = await timed(process.execPath, [yoiBin, '--version']);
      const s = await timed(...send('hi'));
      const raw = await timed(process.execPath, [rawClient, warmPod.socket, 'run'], { cwd: warm.dir });
      const c = await coldYoi();
      if (keep)
        [
          ['version', v.exit],
          ['first', s.first],
          ['raw', raw.first],
          ['cold', c.first],
          ['ready', c.ready],
        ].forEach(([row, x]) => push(row, 'yoi', x));
    });
    for (const p of peers) {
      await attempt(p.name, async () => {
        const v = await timed(p.cmd, ['--version'], p);
        const s = await timed(p.cmd, p.oneShot('hi'), p);
        if (keep)
          [
            ['version', v.exit],
            ['first', s.first],
            ['cold', s.first],
          ].forEach(([row, x]) => push(row, p.name, x));
        if (p.native) {
          const nv = await timed(p.native, ['--version'], p);
          if (keep) push('native', p.name, nv.exit);
        }
      });
    }
  }
  server.setReply(chunks);
  for (let round = 0; round < WARMUP + RUNS; round++) {
    const keep = round >= WARMUP;
    await attempt('yoi', async () => {
      const [cmd, args, opts] = send('go');
      const d = await drain(cmd, args, opts, [warmPod.pid]);
      if (keep) {
        push('drain', 'yoi', d.ms);
        push('drainFirst', 'yoi', d.firstMs);
        push('peak', 'yoi', d.rss);
      }
    });
    for (const p of peers) {
      await attempt(p.name, async () => {
        const d = await drain(p.cmd, p.oneShot('go'), p);
        if (keep) {
          push('drain', p.name, d.ms);
          push('drainFirst', p.name, d.firstMs);
          push('peak', p.name, d.rss);
        }
      });
    }
  }
} finally {
  await warmPod.stop();
}

/** Starts a long-running form, waits until it answered (or listens), lets it settle, reads its tree's RSS. */
async function idleRss(cmd, args, { cwd, env, hello, ready }) {
  const child = spawn(cmd, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  try {
    await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => reject(new Error(`${path.basename(cmd)} ${args[0]} did not answer in time`)),
        TIMEOUT_MS,
      );
      const look = (d) => {
        out = (out + d).slice(-65536);
        if (!out.includes(ready)) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout.on('data', look);
      child.stderr.on('data', look);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${path.basename(cmd)} exited ${code}`));
      });
      if (hello) child.stdin.write(`${hello}\n`);
    });
    // Idle means after start-up's own work (lazy loads, timers) is done; a fixed pause, not a sync.
    await new Promise((r) => setTimeout(r, 2000));
    return treeRss([child.pid]);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
  }
}
for (let round = 0; round < IDLE_RUNS; round++) {
  await attempt('yoi', async () => {
    const pod = await spawnPod(cold.dir, ['--name', 'idle']);
    await new Promise((r) => setTimeout(r, 2000));
    push('idle', 'yoi', treeRss([pod.pid]));
    await pod.stop();
  });
  for (const p of peers)
    await attempt(p.name, async () => push('idle', p.name, await idleRss(p.cmd, p.server.args, { ...p, ...p.server })));
}
await server.close();

const { printTable, median, versionCell } = await import('./support/peersTable.js');
printTable(results, ['yoi', ...peers.map((p) => p.name)], { runs: RUNS, idleRuns: IDLE_RUNS });
for (const p of peers.filter((x) => results.has(`native|${x.name}`))) {
  console.log(
    `${p.name}'s native binary \`--version\` (what its node launcher runs): ${versionCell(results.get(`native|${p.name}`), results.get('node|node -e 0'))}`,
  );
}
console.log(
  `versions: yoi ${JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}, ${peers.map((p) => `${p.pkg}@${p.version}`).join(', ')}; node ${process.version}; load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (const [tool, why] of failed) console.log(`${tool}: not measured — ${why}`);
const codexCold = median(results.get('cold|Codex') ?? []);
const codexDrain = median(results.get('drain|Codex') ?? []);
let ok = !failed.has('yoi');
if (Number.isFinite(codexCold)) {
  ok =
    report(
      'peers: cold one-shot first byte, yoi pod start + send vs Codex exec',
      median(results.get('cold|yoi')) / codexCold,
      1.7,
      { detail: `${median(results.get('cold|yoi')).toFixed(0)} vs ${codexCold.toFixed(0)} ms` },
    ) && ok;
  ok =
    report(
      'peers: 2,000-chunk reply drained, yoi send vs Codex exec',
      median(results.get('drain|yoi')) / codexDrain,
      1,
      { detail: `${median(results.get('drain|yoi')).toFixed(0)} vs ${codexDrain.toFixed(0)} ms` },
    ) && ok;
} else {
  console.log('peers: Codex not measured, goals 3 and 4 not checked');
  ok = false;
}
process.exitCode = ok ? 0 : 1;
