import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject } from '../support/startTestPod.js';
import { natsSuite, startNatsServer, type NatsServer } from '../support/natsServer.js';
import { BIN, startPodProcess, yoi } from '../support/runCli.js';

/**
 * A pod in cluster mode, and `yoi host`, whose NATS server went away: each still stops, and its
 * process ends. A NATS drain waits for the server; with it gone the stopped pod's process stayed
 * alive for good, reconnecting (`yoi pod stop` had said "stopped"), and `yoi host` ignored SIGTERM.
 */
const suite = natsSuite('the cluster stop tests');

suite('stopping with NATS gone', () => {
  let nats: NatsServer;
  const kills: (() => void)[] = [];
  beforeAll(async () => {
    nats = await startNatsServer();
  }, 60_000);
  afterAll(async () => {
    for (const k of kills) k();
    await nats?.dispose();
  }, 60_000);

  function project() {
    const dir = fs.realpathSync(
      makeProject({ 'yoi.config.json': JSON.stringify({ cluster: { nats: { servers: nats.url } } }) }),
    );
    return { dir, env: { YOI_RUNTIME_DIR: path.join(dir, 'run'), YOI_HOST_NAME: 'host-one' } };
  }

  /** The exit code, or 'still running' once `ms` have passed. */
  const exitWithin = (exited: Promise<number | null>, ms: number) =>
    Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), ms).unref())]);

  it('a pod in cluster mode stops and its process ends', async () => {
    const p = project();
    const pod = await startPodProcess(['--name', 'lone'], { cwd: p.dir, env: p.env });
    kills.push(() => pod.child.kill('SIGKILL'));
    // Joined: its registry entry is there.
    expect(yoi(['pod', 'list', '--cluster', '--json'], { cwd: p.dir, env: p.env, timeoutMs: 30_000 }).stdout).toContain(
      '"lone"',
    );
    await nats.stop();
    const stop = yoi(['pod', 'stop', '--pod', 'lone'], { cwd: p.dir, env: p.env, timeoutMs: 30_000 });
    expect(stop.status).toBe(0);
    expect(await exitWithin(pod.exited, 15_000)).toBe(0);
  }, 90_000);

  it('yoi host ends on SIGTERM', async () => {
    await nats.start(); // stopped by the test before
    const p = project();
    const host = spawn(process.execPath, [BIN, 'host', '--name', 'h1'], {
      cwd: p.dir,
      env: { ...process.env, ...p.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    kills.push(() => host.kill('SIGKILL'));
    const exited = new Promise<number | null>((r) => host.once('exit', (code) => r(code)));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      host.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('serving')) resolve();
      });
      void exited.then((code) => reject(new Error(`yoi host exited (${code}) before serving`)));
    });
    await nats.stop();
    host.kill('SIGTERM');
    expect(await exitWithin(exited, 15_000)).toBe(0);
  }, 90_000);
});
