import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Event, PodClient, Segment, YoiPlugin } from 'yoi';
import { PodClient as Client } from './api.js';
import { Pod, createHostFromConfig, defaultPlugins, loadConfig } from './pod.js';

export interface StartPodOptions {
  /**
   * The plugins to apply; default: the built-ins. Pass `[...defaultPlugins(), mine()]` to add
   * yours. They stand where a config file's `plugins` would (so `config` may hold their sections);
   * a JS/TS config in `dir` that lists plugins itself takes precedence.
   */
  readonly plugins?: readonly YoiPlugin[];
  /** Files to create in the project directory (relative path → content). */
  readonly files?: Readonly<Record<string, string>>;
  /** The project's config (plain data, written as `yoi.config.json`); plugin sections included. */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Pod name (default `test`). */
  readonly name?: string;
  /** Use this project directory instead of a new temp one (kept when the pod stops). */
  readonly dir?: string;
}

/** A real pod on a real Unix socket in this process, with a connected v2 client. */
export interface TestPodHandle {
  /** The pod's name (`test` unless given). */
  readonly name: string;
  /** The project directory (a temp dir unless `dir` was given). */
  readonly dir: string;
  readonly socket: string;
  /** Connected with `hello` (protocol 2) as `yoi-testing`. */
  readonly client: PodClient;
  /** Another client (protocol 1 or 2). */
  connect(protocol?: 1 | 2): Promise<PodClient>;
  /** Sends `run{input}` and resolves with every event up to and including its terminal event. */
  run(input: readonly Segment[] | string, timeoutMs?: number): Promise<Event[]>;
  /** Stops the pod (cleanly) and removes the temp project. */
  stop(): Promise<void>;
}

/**
 * Starts a pod with the given plugins in a temp project, the way `yoi pod start` does (config
 * loaded and validated, plugin sections included), and returns it with a connected client. For a
 * plugin's own tests: `const pod = await startPod({ plugins: [...defaultPlugins(), mine()] })`.
 */
export async function startPod(opts: StartPodOptions = {}): Promise<TestPodHandle> {
  const temp = opts.dir === undefined;
  const dir = opts.dir ?? fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-pod-')));
  for (const [rel, content] of Object.entries(opts.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  if (opts.config) fs.writeFileSync(path.join(dir, 'yoi.config.json'), JSON.stringify(opts.config));
  // A short runtime dir of its own (sun_path is 107 bytes): other pods on the machine are not touched.
  const runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-rt-'));
  const env = { ...process.env, YOI_RUNTIME_DIR: runtimeDir };
  const removeDirs = () => {
    fs.rmSync(runtimeDir, { recursive: true, force: true });
    if (temp) fs.rmSync(dir, { recursive: true, force: true });
  };
  const name = opts.name ?? 'test';
  let pod: Pod;
  try {
    // The given plugins stand where a config file's `plugins` would: their sections are validated.
    const config = await loadConfig({ cwd: dir, env, defaultPlugins: opts.plugins ?? defaultPlugins() });
    pod = await Pod.start({ config, host: createHostFromConfig(config), name, env });
  } catch (error) {
    removeDirs();
    throw error;
  }
  const connect = (protocol: 1 | 2 = 2): Promise<PodClient> =>
    Client.connect({ socketPath: pod.paths.socket, protocol, clientName: 'yoi-testing' });
  const client = await connect().catch(async (error: unknown) => {
    await pod.stop();
    removeDirs();
    throw error;
  });
  return {
    name,
    dir,
    socket: pod.paths.socket,
    client,
    connect,
    async run(input, timeoutMs = 30_000) {
      const segments: readonly Segment[] = typeof input === 'string' ? [{ kind: 'text', content: input }] : input;
      const events: Event[] = [];
      const off = client.onEvent((e) => events.push(e));
      const ended = client.waitFor(
        (e) => e.event === 'run_end' || (e.event === 'error' && e.request_id === undefined),
        timeoutMs,
      );
      ended.catch(() => undefined); // awaited below; a refused request must not leave it unhandled
      try {
        await client.request({ method: 'run', params: { input: [...segments] } });
        await ended;
      } finally {
        off();
      }
      return events;
    },
    async stop() {
      await client.close().catch(() => undefined);
      await pod.stop();
      removeDirs();
    },
  };
}
