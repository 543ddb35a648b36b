import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { createHostFromConfig } from '../../core/config/createHostFromConfig.js';
import { loadConfig } from '../../core/config/loadConfig.js';
import { Pod } from '../../core/pod/Pod.js';
import type { YoiPlugin } from '../../core/plugin/YoiPlugin.js';
import type { Event } from '../../core/protocol/index.js';
import { defaultPlugins } from '../../plugins/index.js';
import { PodTreeService } from '../../plugins/podtree/podTreePlugin.js';
import type { PodTree } from '../../plugins/podtree/tree/PodTree.js';

export interface TestPodOptions {
  /** Files to create in the project directory (relative path → content). */
  files?: Record<string, string>;
  /** Written as the project's yoi.config.json (plain data). */
  config?: Record<string, unknown>;
  /** Replaces the config's plugin list (a programmatic config). */
  plugins?: YoiPlugin[];
  name?: string;
  resume?: string | true;
  /** Reuse a project dir (restart tests). */
  dir?: string;
  /** Start as a child of the pod at `callback` (which reserved its scope). */
  adopt?: { callback: string; instruction?: string; secret?: string };
  /** Launch parameters for plugins (`yoi pod start --listen …` gives `{ listen: {...} }`). */
  launch?: Record<string, unknown>;
}

export interface TestPod {
  pod: Pod;
  dir: string;
  runtimeDir: string;
  socket: string;
  connect(protocol?: 1 | 2): Promise<PodClient>;
  stop(): Promise<void>;
}

/** A temp project dir; the runtime dir lives under it with a short path (sun_path limit). */
export function makeProject(files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-t-'));
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

/** Starts a real pod in this process, listening on a real Unix socket. */
export async function startTestPod(opts: TestPodOptions = {}): Promise<TestPod> {
  const dir = opts.dir ?? makeProject(opts.files);
  if (opts.dir && opts.files)
    for (const [rel, c] of Object.entries(opts.files)) fs.writeFileSync(path.join(dir, rel), c);
  if (opts.config) fs.writeFileSync(path.join(dir, 'yoi.config.json'), JSON.stringify(opts.config));
  const runtimeDir = path.join(dir, 'run');
  const env = { ...process.env, YOI_RUNTIME_DIR: runtimeDir };
  const loaded = await loadConfig({ cwd: dir, env, defaultPlugins: defaultPlugins() });
  const config = opts.plugins ? { ...loaded, plugins: opts.plugins } : loaded;
  const host = createHostFromConfig(config);
  const pod = await Pod.start({
    config,
    host,
    name: opts.name ?? 'test',
    env,
    resume: opts.resume,
    ...(opts.adopt || opts.launch ? { launch: { ...opts.launch, ...(opts.adopt ? { adopt: opts.adopt } : {}) } } : {}),
  });
  return {
    pod,
    dir,
    runtimeDir,
    socket: pod.paths.socket,
    connect: (protocol = 2) => PodClient.connect({ socketPath: pod.paths.socket, protocol, clientName: 'test/1' }),
    stop: () => pod.stop(),
  };
}

/** Collects every event a client receives. */
export function recorder(client: PodClient): Event[] {
  const events: Event[] = [];
  client.onEvent((e) => events.push(e));
  return events;
}

/** Waits for the next terminal event of a run (`run_end` or a broadcast `error`). */
export function runEnded(client: PodClient, timeoutMs = 10_000): Promise<Event> {
  return client.waitFor((e) => e.event === 'run_end' || (e.event === 'error' && e.request_id === undefined), timeoutMs);
}

export const text = (content: string) => ({ kind: 'text' as const, content });

/** Resolves once `events` (a recorder) holds an event matching `pred`, past ones included. */
export async function until(events: Event[], pred: (e: Event) => boolean, timeoutMs = 10_000): Promise<Event> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = events.find(pred);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out; saw ${JSON.stringify(events.map((e) => e.event))}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The pod tree service of a test pod (provided by `yoi:pod-tree`). */
export function treeOf(pod: Pod): PodTree {
  return pod.host.services.get(PodTreeService);
}

/**
 * A client that reports for a child pod `name` of this test pod, as the real child does: the
 * child is recorded in the pod tree with a secret and the client presents it in `hello`.
 */
export async function childReporter(tp: TestPod, name: string): Promise<PodClient> {
  const secret = `${name}-test-secret`;
  treeOf(tp.pod).registry.add({
    pod_name: name,
    socket_path: `/run/${name}/sock`,
    scope_delegated: [],
    callback_address: tp.socket,
    secret,
  });
  return PodClient.connect({ socketPath: tp.socket, clientName: `pod/${name}`, auth: secret });
}
