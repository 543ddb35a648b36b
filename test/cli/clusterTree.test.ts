import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { clusterNames } from '../../plugins/cluster/clusterNames.js';
import { signReport } from '../../plugins/cluster/reportSignature.js';
import { startHostProcess } from '../support/hostProcess.js';
import { clusterDiagnosis, reportsDiagnosis } from '../support/clusterDiagnosis.js';
import { natsSuite, startNatsServer, type NatsServer } from '../support/natsServer.js';
import { startPodProcess, yoi, yoiAsync } from '../support/runCli.js';
import { makeProject } from '../support/startTestPod.js';
import { waitFor } from '../support/waitFor.js';

/**
 * Pod trees across two simulated hosts on this machine (separate runtime dirs and host names)
 * over a real nats-server: `host-a` runs `yoi host`; the root pod runs "on" `host-b` and
 * places its child on `host-a` with SpawnPod `host`. The child's reports reach the root through
 * JetStream: across a NATS restart and a root restart none is lost and none applied twice; a
 * host killed with its pods is marked gone after the TTL and its scope reclaimed.
 */
const suite = natsSuite('the cluster pod-tree tests');

const CONFIG = (servers: string, prefix: string, ttlMs: number) => `import fs from 'node:fs';
import path from 'node:path';
import { defaultPlugins, definePlugin, z } from 'yoi';

const waitForFile = definePlugin({
  name: 'test:wait-for-file',
  apply(host) {
    host.hooks.tools.for('WaitForFile').tap('test:wait-for-file', () => ({
      name: 'WaitForFile',
      description: 'Waits until a file exists.',
      input: z.object({ path: z.string() }),
      async execute({ path }, ctx) {
        while (!fs.existsSync(path) && !ctx.signal.aborted) await new Promise((r) => setTimeout(r, 20));
        return { summary: 'found ' + path };
      },
    }));
  },
});

const eventLog = definePlugin({
  name: 'test:event-log',
  apply(host) {
    for (const kind of ['turn_ended', 'errored', 'shut_down', 'scope_sub_delegated']) {
      host.hooks.podEvent.for(kind).tapPromise('test:event-log', async (event, ctx) => {
        fs.appendFileSync(path.join(ctx.projectDir, 'events.' + ctx.podName + '.log'), JSON.stringify(event) + '\\n');
      });
    }
  },
});

export default {
  model: { provider: 'scripted', script: 'script.{pod}.json' },
  plugins: [...defaultPlugins(), eventLog(), waitForFile()],
  cluster: { nats: { servers: ${JSON.stringify(servers)}, prefix: ${JSON.stringify(prefix)} }, ttlMs: ${ttlMs}, heartbeatMs: 300 },
};
`;

const pids: number[] = [];
const cleanups: (() => void)[] = [];
const kill = (pid: number | undefined) => {
  try {
    if (pid) process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
};

suite('pod trees across hosts', () => {
  let nats: NatsServer;
  let n = 0;
  beforeAll(async () => {
    nats = await startNatsServer();
  }, 60_000);
  afterEach(() => {
    for (const pid of pids.splice(0)) kill(pid);
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  afterAll(async () => {
    await nats?.dispose();
  }, 60_000);

  async function cluster({
    ttlMs = 30_000,
    rootScript,
  }: { ttlMs?: number; rootScript?: (dir: string) => unknown[] } = {}) {
    const dir = fs.realpathSync(makeProject({ 'src/a.ts': 'a\n' }));
    const prefix = `t${++n}${process.pid}-`;
    fs.writeFileSync(path.join(dir, 'yoi.config.ts'), CONFIG(nats.url, prefix, ttlMs));
    const script = (pod: string, replies: unknown[]) =>
      fs.writeFileSync(path.join(dir, `script.${pod}.json`), JSON.stringify(replies));
    script(
      'root',
      rootScript?.(dir) ?? [
        {
          tool_calls: [
            {
              name: 'SpawnPod',
              arguments: { name: 'kid', task: 'work', host: 'host-a', scope: [{ target: 'src', permission: 'write' }] },
            },
          ],
        },
        { text: 'spawned' },
      ],
    );
    script('kid', []);
    const envA = { YOI_RUNTIME_DIR: path.join(dir, 'run-a') };
    const envB = { YOI_RUNTIME_DIR: path.join(dir, 'run-b'), YOI_HOST_NAME: 'host-b' };
    // Pods the host started are detached: killed by their pid files at the end.
    cleanups.push(() => {
      for (const runtime of [envA.YOI_RUNTIME_DIR, envB.YOI_RUNTIME_DIR]) {
        for (const pod of fs.existsSync(runtime) ? fs.readdirSync(runtime) : []) {
          const pidFile = path.join(runtime, pod, 'pid');
          if (fs.existsSync(pidFile)) kill(Number(fs.readFileSync(pidFile, 'utf8')));
        }
      }
    });
    const host = await startHostProcess('host-a', { cwd: dir, env: envA });
    pids.push(host.child.pid!);
    const startRoot = async (...args: string[]) => {
      const root = await startPodProcess(['--name', 'root', ...args], { cwd: dir, env: envB });
      pids.push(root.child.pid!);
      return root;
    };
    const root = await startRoot();
    const events = (pod: string) => {
      const file = path.join(dir, `events.${pod}.log`);
      return fs.existsSync(file)
        ? fs
            .readFileSync(file, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as { kind: string; pod_name: string })
        : [];
    };
    const turnsEnded = () => events('root').filter((e) => e.kind === 'turn_ended' && e.pod_name === 'kid').length;
    const listCluster = async () => {
      const r = await yoiAsync(['pod', 'list', '--cluster', '--json'], { cwd: dir, env: envB, timeoutMs: 60_000 });
      if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
      return JSON.parse(r.stdout) as {
        name: string;
        host: string;
        parent: string | null;
        pid: number;
        endpoints: { socket: string };
      }[];
    };
    const kidSocket = path.join(envA.YOI_RUNTIME_DIR, 'kid', 'sock');
    /** A run given to the kid as its parent gives it (it reports when the run ends). */
    const runKid = async (text: string) => {
      const client = await PodClient.connect({ socketPath: kidSocket, clientName: 'pod/root' });
      try {
        await client.request({ method: 'run', params: { input: [{ kind: 'text', content: text }] } });
      } finally {
        await client.close();
      }
    };
    const diagnose = () =>
      clusterDiagnosis({
        projectDir: dir,
        kidDir: path.join(envA.YOI_RUNTIME_DIR, 'kid'),
        rootDir: path.join(envB.YOI_RUNTIME_DIR, 'root'),
        hostStderr: host.stderr(),
        rootStderr: root.stderr(),
      });
    const spawn = async () => {
      const sent = yoi(['send', '--pod', 'root', 'go'], { cwd: dir, env: envB, timeoutMs: 60_000 });
      expect(sent.status).toBe(0);
      await waitFor("the kid's first report at the root", () => turnsEnded() >= 1, 90_000).catch(async (e: Error) => {
        throw new Error(`${e.message}\n${diagnose()}\n${await reportsDiagnosis(nats.url, prefix, 'root')}`);
      });
      const kid = await waitFor(
        'the kid in the cluster registry',
        async () => (await listCluster()).find((e) => e.name === 'kid'),
        90_000,
      );
      pids.push(kid.pid);
      return kid;
    };
    /** Waits until the stream holds `stored` reports and the root handled them all (none pending, none unacknowledged). */
    const settled = async (stored: number) => {
      const { connect } = await import('@nats-io/transport-node');
      const { jetstreamManager } = await import('@nats-io/jetstream');
      const names = clusterNames(prefix);
      const nc = await connect({ servers: nats.url });
      try {
        const jsm = await jetstreamManager(nc);
        await waitFor(
          `${stored} reports stored and handled`,
          async () => {
            const stream = await jsm.streams.info(names.reportsStream);
            const consumer = await jsm.consumers.info(names.reportsStream, names.reportsConsumer('root'));
            return stream.state.messages === stored && consumer.num_pending === 0 && consumer.num_ack_pending === 0;
          },
          120_000,
        );
      } finally {
        await nc.close();
      }
    };
    return {
      dir,
      envA,
      envB,
      host,
      root,
      startRoot,
      events,
      turnsEnded,
      listCluster,
      runKid,
      spawn,
      kidSocket,
      prefix,
      settled,
    };
  }

  it('places a child on another host, whose reports reach the parent through JetStream', async () => {
    const c = await cluster();
    const kid = await c.spawn();
    expect(kid).toMatchObject({ host: 'host-a', parent: 'root', endpoints: { socket: c.kidSocket } });
    const lock = JSON.parse(fs.readFileSync(path.join(c.envA.YOI_RUNTIME_DIR, 'scope.lock'), 'utf8')).allocations as {
      pod_name: string;
      delegated_from: string | null;
    }[];
    expect(lock.find((a) => a.pod_name === 'kid')?.delegated_from).toBe('root');
    const registry = JSON.parse(
      fs.readFileSync(path.join(c.envB.YOI_RUNTIME_DIR, 'root', 'spawned_pods.json'), 'utf8'),
    ) as { pod_name: string; host?: string }[];
    expect(registry).toEqual([expect.objectContaining({ pod_name: 'kid', host: 'host-a' })]);
    expect(c.turnsEnded()).toBe(1);
  }, 240_000);

  it('loses no report and applies none twice while the NATS server restarts', async () => {
    const c = await cluster();
    await c.spawn();
    await nats.stop();
    for (let i = 0; i < 3; i++) await c.runKid(`while down ${i}`);
    await nats.start();
    await c.runKid('marker');
    // Stored once each (the first, three while down, the marker) and each applied once.
    await c.settled(5);
    expect(c.turnsEnded()).toBe(5);
  }, 300_000);

  it('delivers what the child reported while its parent was stopped, once, to the resumed parent', async () => {
    const c = await cluster();
    await c.spawn();
    expect(yoi(['pod', 'stop', '--pod', 'root'], { cwd: c.dir, env: c.envB }).status).toBe(0);
    await c.root.exited;
    for (let i = 0; i < 3; i++) await c.runKid(`while the parent is away ${i}`);
    await c.startRoot('--resume');
    await c.runKid('marker');
    await c.settled(5);
    expect(c.turnsEnded()).toBe(5);
  }, 300_000);

  it('a parent killed while its host places the child knows the child once restarted, and applies its report', async () => {
    const c = await cluster();
    const registry = path.join(c.envB.YOI_RUNTIME_DIR, 'root', 'spawned_pods.json');
    const kidPid = path.join(c.envA.YOI_RUNTIME_DIR, 'kid', 'pid');
    const sent = yoiAsync(['send', '--pod', 'root', 'go'], { cwd: c.dir, env: c.envB, timeoutMs: 60_000 });
    // The kid's process exists: its host has not answered the placement yet (it answers once the
    // kid accepted its task), so the root is in the middle of SpawnPod.
    const deadline = Date.now() + 60_000;
    while (!fs.existsSync(kidPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    expect(JSON.parse(fs.readFileSync(registry, 'utf8'))).toEqual([
      expect.objectContaining({ pod_name: 'kid', host: 'host-a' }),
    ]);
    kill(c.root.child.pid);
    await c.root.exited;
    await sent;
    await c.startRoot('--resume');
    await waitFor("the kid's report at the restarted root", () => c.turnsEnded() >= 1, 90_000);
    // The socket the host's lost answer held comes from the kid's cluster registration.
    await waitFor(
      "the kid's socket in the root's registry",
      () => JSON.parse(fs.readFileSync(registry, 'utf8'))[0]?.socket_path === c.kidSocket,
      30_000,
    );
  }, 240_000);

  it('a placement no host serves is an error result, and leaves no record of the child', async () => {
    const c = await cluster({
      rootScript: () => [
        {
          tool_calls: [
            {
              name: 'SpawnPod',
              arguments: {
                name: 'kid',
                task: 'work',
                host: 'nowhere',
                scope: [{ target: 'src', permission: 'write' }],
              },
            },
          ],
        },
        { text: 'noted' },
      ],
    });
    const sent = yoi(['send', '--pod', 'root', 'go'], { cwd: c.dir, env: c.envB, timeoutMs: 60_000 });
    expect(sent.status).toBe(0);
    expect(sent.stdout).toContain('noted');
    const registry = path.join(c.envB.YOI_RUNTIME_DIR, 'root', 'spawned_pods.json');
    expect(fs.existsSync(registry) ? JSON.parse(fs.readFileSync(registry, 'utf8')) : []).toEqual([]);
    const history = yoi(['history', '--pod', 'root'], { cwd: c.dir, env: c.envB });
    expect(history.stdout).toContain('pod `kid` was not started on host `nowhere`: no `yoi host` named `nowhere`');
  }, 120_000);

  it("marks a killed host's pods gone after the TTL and reclaims their scope", async () => {
    const c = await cluster({ ttlMs: 2000 });
    const kid = await c.spawn();
    kill(c.host.child.pid);
    kill(kid.pid);
    await c.host.exited;
    await waitFor(
      'the kid to leave the registry',
      async () => !(await c.listCluster()).some((e) => e.name === 'kid'),
      90_000,
    );
    const registryFile = path.join(c.envB.YOI_RUNTIME_DIR, 'root', 'spawned_pods.json');
    await waitFor(
      'the root to forget the kid',
      () => !fs.existsSync(registryFile) || !fs.readFileSync(registryFile, 'utf8').includes('"kid"'),
      90_000,
    );
    // The host comes back: the dead pods' scope is reclaimed, and the same scope can be delegated again.
    const again = await startHostProcess('host-a', { cwd: c.dir, env: c.envA });
    pids.push(again.child.pid!);
    const lock = JSON.parse(fs.readFileSync(path.join(c.envA.YOI_RUNTIME_DIR, 'scope.lock'), 'utf8')).allocations as {
      pod_name: string;
    }[];
    expect(lock.map((a) => a.pod_name)).not.toContain('kid');
    expect(again.stderr()).toContain('reclaimed the scope of');
  }, 300_000);

  it("refuses a report without the child's signature and applies a replayed one once, also after the parent resumes", async () => {
    const c = await cluster();
    await c.spawn();
    const secret = (
      JSON.parse(fs.readFileSync(path.join(c.envB.YOI_RUNTIME_DIR, 'root', 'spawned_pods.json'), 'utf8')) as {
        secret: string;
      }[]
    )[0].secret;
    const { connect, headers } = await import('@nats-io/transport-node');
    const { jetstream } = await import('@nats-io/jetstream');
    const nc = await connect({ servers: nats.url });
    try {
      const names = clusterNames(c.prefix);
      const subject = names.reports('root');
      const settled = c.settled;

      const publish = (requestId: string, msgId: string, key: string) => {
        const payload = Buffer.from(
          JSON.stringify({
            method: 'pod_event',
            request_id: requestId,
            params: { kind: 'turn_ended', pod_name: 'kid' },
          }),
        );
        const h = headers();
        h.set('Yoi-Pod', 'kid');
        h.set('Yoi-Sig', signReport(key, payload));
        return jetstream(nc).publish(subject, payload, { msgID: msgId, headers: h });
      };
      // A forged report (another key) is refused with an alert; the root keeps running.
      await publish('forged-1', 'forged-1', 'not the secret');
      // The same report published three times: twice with one message id (the server drops the
      // copy), once more with another id (the parent has applied that request id already).
      await publish('replayed-1', 'm-1', secret);
      await publish('replayed-1', 'm-1', secret);
      await publish('replayed-1', 'm-2', secret);
      await c.runKid('marker');
      // The first report, the forged one, replayed-1 twice (m-1, m-2), the marker.
      await settled(5);
      expect(c.turnsEnded()).toBe(3);
      expect(yoi(['pod', 'status', '--pod', 'root'], { cwd: c.dir, env: c.envB }).status).toBe(0);

      // Commands to the kid through its host: only signed by its secret, from its parent, once.
      const command = async (key: string, id: string, parent = 'root') => {
        const body = JSON.stringify({ pod: 'kid', parent, id, at: Date.now(), method: { method: 'get_history' } });
        const r = await nc.request(
          names.command('host-a'),
          JSON.stringify({ body, sig: signReport(key, Buffer.from(body)) }),
          { timeout: 30_000 },
        );
        return JSON.parse(r.string()) as { ok: boolean; code?: string; message?: string; reply?: { event: string } };
      };
      expect(await command('not the secret', 'a'.repeat(32))).toMatchObject({ ok: false, code: 'invalid_request' });
      expect(await command(secret, 'b'.repeat(32), 'someone-else')).toMatchObject({
        ok: false,
        code: 'invalid_request',
      });
      expect(await command(secret, 'c'.repeat(32))).toMatchObject({ ok: true, reply: { event: 'history' } });
      expect(await command(secret, 'c'.repeat(32))).toMatchObject({
        ok: false,
        message: expect.stringContaining('sent before'),
      });

      // A placement request is not signed: one forged by anyone on NATS gets nothing outside the
      // project the host serves (replayed: it placed a pod with write access to /etc).
      const forged = await nc.request(
        names.spawn('host-a'),
        JSON.stringify({
          name: 'evilpod',
          parent: 'nobody',
          task: 'write /etc/pwned',
          secret: 'f'.repeat(64),
          scope: [{ target: '/etc', permission: 'write', recursive: true }],
          cwd: '/etc',
          project_dir: '/nonexistent',
        }),
        { timeout: 30_000 },
      );
      expect(JSON.parse(forged.string())).toEqual({
        ok: false,
        error: `scope target /etc is outside the project host host-a serves (${c.dir})`,
      });
      expect(fs.existsSync(path.join(c.envA.YOI_RUNTIME_DIR, 'evilpod'))).toBe(false);

      // Across a restart with --resume, the applied ids come back from the session log.
      expect(yoi(['pod', 'stop', '--pod', 'root'], { cwd: c.dir, env: c.envB }).status).toBe(0);
      await c.root.exited;
      await publish('replayed-1', 'm-3', secret);
      await c.startRoot('--resume');
      await c.runKid('second marker');
      await settled(7);
      expect(c.turnsEnded()).toBe(4);
    } finally {
      await nc.close();
    }
  }, 300_000);

  it('drives the remote child with SendToPod, ReadPodOutput and StopPod through its host', async () => {
    const call = (name: string, args: Record<string, unknown>) => ({ tool_calls: [{ name, arguments: args }] });
    const flagIn = (dir: string, n: number) => path.join(dir, `flag-${n}`);
    // One run of the root: every step waits for what the test saw, so no report starts a run of its own.
    const c = await cluster({
      rootScript: (dir) => {
        const flag = (n: number) => flagIn(dir, n);
        return [
          call('SpawnPod', {
            name: 'kid',
            task: 'work',
            host: 'host-a',
            scope: [{ target: 'src', permission: 'write' }],
          }),
          call('WaitForFile', { path: flag(1) }),
          call('SendToPod', { name: 'kid', message: 'more work, remotely' }),
          call('WaitForFile', { path: flag(2) }),
          call('ReadPodOutput', { name: 'kid' }),
          call('StopPod', { name: 'kid' }),
          { text: 'all done' },
        ];
      },
    });
    const flag = (n: number) => flagIn(c.dir, n);
    const run = yoiAsync(['send', '--pod', 'root', '--json', 'go'], { cwd: c.dir, env: c.envB, timeoutMs: 240_000 });
    await waitFor("the kid's first report", () => c.turnsEnded() >= 1, 120_000);
    fs.writeFileSync(flag(1), '');
    await waitFor("the kid's second report", () => c.turnsEnded() >= 2, 120_000);
    fs.writeFileSync(flag(2), '');
    const sent = await run;
    expect(sent.status).toBe(0);
    const results = sent.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; data: { summary?: string; output?: string } })
      .filter((e) => e.event === 'tool_result')
      .map((e) => `${e.data.summary ?? ''}\n${e.data.output ?? ''}`);
    expect(results.find((r) => r.startsWith('sent message to `kid`'))).toBeDefined();
    expect(results.find((r) => r.includes('more work, remotely'))).toBeDefined(); // ReadPodOutput: the kid's echo of it
    expect(results.find((r) => r.startsWith('stopped pod `kid`'))).toBeDefined();
    await waitFor('the kid to stop', () => !fs.existsSync(c.kidSocket), 60_000);
    await waitFor(
      "the kid's shut_down report",
      () => c.events('root').some((e) => e.kind === 'shut_down' && e.pod_name === 'kid'),
      120_000,
    );
  }, 300_000);

  it('keeps relaying the reports of the pods it placed after `yoi host` restarts', async () => {
    const c = await cluster();
    await c.spawn();
    kill(c.host.child.pid);
    await c.host.exited;
    const again = await startHostProcess('host-a', { cwd: c.dir, env: c.envA });
    pids.push(again.child.pid!);
    await c.runKid('after the host restarted');
    await c.settled(2);
    expect(c.turnsEnded()).toBe(2);
  }, 300_000);
});
