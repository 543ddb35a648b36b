// A child's report → applied by its parent, through JetStream vs the local socket path. A real
// nats-server (JetStream in a temp dir on 127.0.0.1), a `yoi host` ("host-a") and a root pod
// ("host-b") that placed its child `kid` on host-a with SpawnPod `host`. The bench then reports
// as that child, one report at a time, with the child's own outbox and secret: to the host's
// relay (→ JetStream → the root's durable consumer → the root's side effects), and, as the
// baseline, straight to the root's socket (how a child on the same host reports). A report
// counts as applied when the root broadcasts its `notification` (after its side effects).
// Prints the ratio of the medians; goal: JetStream p50 ≤ 5 ms on loopback.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PodEventOutbox } from '../dist/plugins/podtree/PodEventOutbox.js';
import { PodClient } from '../dist/client/PodClient.js';
import { report } from './measure.js';

const REPORTS = Number(process.env.CLUSTER_REPORTS ?? 300);
const bin = fileURLToPath(new URL('../bin/run.js', import.meta.url));

if (spawnSync('nats-server', ['--version']).status !== 0) {
  console.log('cluster: skipped — nats-server is not installed (apt-get install nats-server)');
  process.exit(0);
}

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Starts a process and resolves once a stdout line matches. */
function startUntil(cmd, args, opts, pattern) {
  const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d;
      if (pattern.test(out)) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${cmd} exited with ${code}: ${out}`)));
  });
}

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bc-')));
const procs = [];
try {
  const port = await freePort();
  procs.push(
    await startUntil(
      'nats-server',
      ['-js', '-sd', path.join(dir, 'nats'), '-a', '127.0.0.1', '-p', String(port)],
      {},
      /Server is ready/,
    ),
  );
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(
    path.join(dir, 'yoi.config.json'),
    JSON.stringify({
      model: { provider: 'scripted', script: 'script.{pod}.json' },
      cluster: { nats: { servers: `nats://127.0.0.1:${port}`, prefix: 'bench-' } },
    }),
  );
  fs.writeFileSync(
    path.join(dir, 'script.root.json'),
    JSON.stringify([
      {
        tool_calls: [
          {
            name: 'SpawnPod',
            arguments: { name: 'kid', task: 'work', host: 'host-a', scope: [{ target: 'src', permission: 'read' }] },
          },
        ],
      },
      { text: 'spawned' },
    ]),
  );
  fs.writeFileSync(path.join(dir, 'script.kid.json'), '[]');
  const envA = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'a') };
  const envB = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'b'), YOI_HOST_NAME: 'host-b' };
  procs.push(
    await startUntil(
      process.execPath,
      [bin, 'host', '--name', 'host-a'],
      { cwd: dir, env: envA },
      /^host host-a serving/m,
    ),
  );
  procs.push(
    await startUntil(
      process.execPath,
      [bin, 'pod', 'start', '--name', 'root'],
      { cwd: dir, env: envB },
      /^listening /m,
    ),
  );
  const rootSocket = path.join(envB.YOI_RUNTIME_DIR, 'root', 'sock');
  if (spawnSync(process.execPath, [bin, 'send', '--pod', 'root', 'go'], { cwd: dir, env: envB }).status !== 0)
    throw new Error('the root did not spawn its child');
  const secret = JSON.parse(fs.readFileSync(path.join(envB.YOI_RUNTIME_DIR, 'root', 'spawned_pods.json'), 'utf8'))[0]
    .secret;

  // Applied reports, seen by a client of the root.
  const waiting = new Map();
  const watcher = await PodClient.connect({
    socketPath: rootSocket,
    clientName: 'bench',
    onEvent: (e) => {
      if (e.event !== 'notification') return;
      const m = /bench report (\S+)/.exec(e.data.message);
      if (m) waiting.get(m[1])?.();
    },
  });
  const measure = async (socketPath, label) => {
    const outbox = new PodEventOutbox({
      socketPath,
      clientName: 'pod/kid',
      auth: secret,
      log: (l) => console.error(l),
    });
    const times = [];
    for (let i = 0; i < REPORTS; i++) {
      const id = `${label}-${i}`;
      const applied = new Promise((resolve) => waiting.set(id, resolve));
      const t = performance.now();
      outbox.send({ kind: 'errored', pod_name: 'kid', message: `bench report ${id}` });
      await applied;
      times.push(performance.now() - t);
      waiting.delete(id);
    }
    outbox.close();
    return times.sort((a, b) => a - b);
  };
  const relaySocket = path.join(envA.YOI_RUNTIME_DIR, '.host.sock');
  // Warm both paths, then alternate halves so both see the same load.
  await measure(relaySocket, 'warm-js');
  await measure(rootSocket, 'warm-local');
  const js = [];
  const local = [];
  for (let half = 0; half < 2; half++) {
    js.push(...(await measure(relaySocket, `js${half}`)));
    local.push(...(await measure(rootSocket, `local${half}`)));
  }
  await watcher.close();
  const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];
  const [j50, l50, j99, l99] = [q(js, 0.5), q(local, 0.5), q(js, 0.99), q(local, 0.99)];
  console.log(
    `cluster report → applied via JetStream vs local socket: ratio ${(j50 / l50).toFixed(2)} (p50 ${j50.toFixed(2)} ms vs ${l50.toFixed(2)} ms; p99 ${j99.toFixed(2)} vs ${l99.toFixed(2)} ms; ${js.length} reports each)`,
  );
  const ok = report('cluster JetStream report p50 vs 5 ms', j50 / 5, 1, { detail: `p50 ${j50.toFixed(2)} ms` });
  process.exitCode = ok ? 0 : 1;
} finally {
  for (const p of procs.reverse()) p.kill('SIGKILL');
  // The child the host started (detached): by its pid file.
  try {
    process.kill(Number(fs.readFileSync(path.join(dir, 'a', 'kid', 'pid'), 'utf8')), 'SIGKILL');
  } catch {
    // gone already
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
