import { afterAll, beforeAll, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject } from '../support/startTestPod.js';
import { natsSuite, freePort, startNatsServer, type NatsServer } from '../support/natsServer.js';
import { startPodProcess, yoi, yoiAsync } from '../support/runCli.js';
import { waitFor } from '../support/waitFor.js';

/**
 * The cluster registry with a real nats-server: a pod with a `cluster` section registers in
 * the KV bucket (`yoi pod list --cluster`), leaves it at a clean stop, disappears after the TTL
 * when killed, and starts anyway when NATS is unreachable (registering once it is up).
 */
const suite = natsSuite('the cluster registry tests');

suite('yoi pod list --cluster', () => {
  let nats: NatsServer;
  const kills: (() => void)[] = [];
  beforeAll(async () => {
    nats = await startNatsServer();
  }, 60_000);
  afterAll(async () => {
    for (const k of kills) k();
    await nats?.dispose();
  }, 60_000);

  function project(prefix: string, servers = nats.url) {
    const dir = fs.realpathSync(
      makeProject({
        'yoi.config.json': JSON.stringify({ cluster: { nats: { servers, prefix }, ttlMs: 2000, heartbeatMs: 300 } }),
      }),
    );
    const env = { YOI_RUNTIME_DIR: path.join(dir, 'run'), YOI_HOST_NAME: 'host-one' };
    return { dir, env };
  }

  async function list(p: {
    dir: string;
    env: Record<string, string>;
  }): Promise<{ name: string; host: string; pid: number; status: string; parent: string | null }[]> {
    const r = await yoiAsync(['pod', 'list', '--cluster', '--json'], { cwd: p.dir, env: p.env, timeoutMs: 60_000 });
    if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  }

  async function start(p: { dir: string; env: Record<string, string> }, name: string) {
    const pod = await startPodProcess(['--name', name], { cwd: p.dir, env: p.env });
    kills.push(() => pod.child.kill('SIGKILL'));
    return pod;
  }

  it('lists a running pod with its host, pid and socket, and forgets it at a clean stop', async () => {
    const p = project('reg1-');
    const pod = await start(p, 'alpha');
    const entry = await waitFor(
      'alpha in the registry',
      async () => (await list(p)).find((e) => e.name === 'alpha'),
      100_000,
    );
    expect(entry).toMatchObject({
      name: 'alpha',
      host: 'host-one',
      pid: pod.child.pid,
      parent: null,
      endpoints: { socket: pod.socket },
    });

    const text = yoi(['pod', 'list', '--cluster'], { cwd: p.dir, env: p.env, timeoutMs: 60_000 });
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(
        `^alpha\\s+host-one\\s+\\w+\\s+parent=-\\s+pid=${pod.child.pid}\\s+${pod.socket.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`,
        'm',
      ),
    );

    expect(yoi(['pod', 'stop', '--pod', 'alpha'], { cwd: p.dir, env: p.env }).status).toBe(0);
    await pod.exited;
    expect((await list(p)).map((e) => e.name)).not.toContain('alpha');
  }, 200_000);

  it('drops a killed pod once its entry outlives the TTL', async () => {
    const p = project('reg2-');
    const pod = await start(p, 'beta');
    await waitFor('beta in the registry', async () => (await list(p)).find((e) => e.name === 'beta'));
    pod.child.kill('SIGKILL');
    await pod.exited;
    await waitFor('beta to expire', async () => !(await list(p)).some((e) => e.name === 'beta'), 90_000);
  }, 120_000);

  it('starts a pod whose NATS is unreachable, and registers it once NATS comes up', async () => {
    const port = await freePort();
    const p = project('reg3-', `nats://127.0.0.1:${port}`);
    const pod = await start(p, 'gamma');
    // The pod serves clients meanwhile.
    expect(yoi(['pod', 'status', '--pod', 'gamma'], { cwd: p.dir, env: p.env }).status).toBe(0);
    const late = await startNatsServerOn(port);
    try {
      await waitFor('gamma in the registry', async () => (await list(p)).find((e) => e.name === 'gamma'), 90_000);
    } finally {
      pod.child.kill('SIGKILL');
      await late.dispose();
    }
  }, 150_000);

  it('says in one line that --cluster needs a cluster section', () => {
    const dir = makeProject({ 'yoi.config.json': '{}' });
    const r = yoi(['pod', 'list', '--cluster'], { cwd: dir });
    expect(r.status).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('YOI_ERR_CLUSTER_NOT_CONFIGURED');
  });
});

async function startNatsServerOn(port: number): Promise<NatsServer> {
  return startNatsServer({ port });
}
