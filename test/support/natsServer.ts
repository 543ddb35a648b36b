import { describe } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Whether `nats-server` is on the PATH (tests skip, saying so, without it; CI installs it). */
export function natsServerMissing(): string | undefined {
  const probe = spawnSync('nats-server', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? undefined : 'nats-server is not installed (apt-get install nats-server)';
}

/** `describe` where nats-server is installed; elsewhere `describe.skip`, saying which tests and why. */
export function natsSuite(what: string): typeof describe.skip {
  const missing = natsServerMissing();
  if (missing) console.warn(`skipping ${what}: ${missing}`);
  return missing ? describe.skip : describe;
}

/** A free TCP port on 127.0.0.1 (asked of the kernel). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface NatsServer {
  readonly url: string;
  readonly port: number;
  readonly storeDir: string;
  /** Stops it (SIGTERM, then SIGKILL) and waits for the exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and store (JetStream state survives). */
  start(): Promise<void>;
  /** Stops it for good and removes the store. */
  dispose(): Promise<void>;
}

/**
 * A real `nats-server -js -sd <tmp> -a 127.0.0.1 -p <free port>`; resolves once it accepts
 * connections with JetStream ready (its log says so).
 */
export async function startNatsServer(opts: { port?: number } = {}): Promise<NatsServer> {
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-nats-'));
  const port = opts.port ?? (await freePort());
  let proc: ChildProcess | undefined;

  const start = async () => {
    const child = spawn('nats-server', ['-js', '-sd', storeDir, '-a', '127.0.0.1', '-p', String(port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc = child;
    await new Promise<void>((resolve, reject) => {
      let log = '';
      const onData = (chunk: Buffer) => {
        log += chunk.toString('utf8');
        if (log.includes('Server is ready')) {
          child.stderr!.off('data', onData);
          child.stdout!.off('data', onData);
          resolve();
        }
      };
      child.stderr!.on('data', onData);
      child.stdout!.on('data', onData);
      child.once('exit', (code) =>
        reject(new Error(`nats-server exited with code ${code} before it was ready:\n${log}`)),
      );
    });
    // Keep draining its output so it never blocks on a full pipe.
    child.stderr!.resume();
    child.stdout!.resume();
  };

  const stop = async () => {
    const child = proc;
    proc = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    stop,
    start,
    dispose: async () => {
      await stop();
      fs.rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
