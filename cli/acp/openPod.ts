import fs from 'node:fs';
import path from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { PodClient, type UnknownEvent } from '../../client/PodClient.js';
import type { Event, EventOf } from '../../core/protocol/index.js';
import { ensurePrivateDir, isSocketLive } from '../../core/pod/podFiles.js';
import { podPaths } from '../../core/pod/runtimePaths.js';
import type { YoiMcpServer } from './mcpServers.js';

export interface OpenPodOptions {
  readonly podName: string;
  /** The pod's working directory (the editor's project). */
  readonly cwd: string;
  /** Start it with `--resume <id>` (session/load). */
  readonly resume?: string;
  /** Added to the config's MCP servers when this call starts the pod. */
  readonly mcpServers?: Readonly<Record<string, YoiMcpServer>>;
  readonly clientName: string;
}

export interface OpenedPod {
  readonly client: PodClient;
  readonly history: EventOf<'history'>['data'];
  /** False when the pod was live already (other clients may be using it). */
  readonly started: boolean;
  /** Alerts of a pod this call started, from its start (the MCP servers it could not take…): news to the editor. */
  readonly startAlerts: readonly string[];
  /**
   * What the pod said after the history (another client's run goes on meanwhile), until
   * `release()` hands the stream to the session's own listeners.
   */
  release(): Array<{ event: Event } | { extension: UnknownEvent }>;
}

/** Events kept between the history reply and the session's listeners (a few at most, in practice). */
const MAX_EARLY = 10_000;
/** A pod's start says little; more than this is not repeated in the editor's thread. */
const MAX_START_ALERTS = 32;

/**
 * Connects to the project's pod, starting it first (detached, like `yoi pod start --detach`, so
 * it outlives the editor) when nobody listens on its socket. A live pod serving another
 * directory under the same name is refused rather than shared.
 */
export async function openPod(opts: OpenPodOptions): Promise<OpenedPod> {
  const paths = podPaths(opts.podName);
  let started = false;
  if (!(await isSocketLive(paths.socket))) {
    try {
      await start(opts, paths.base);
      started = true;
    } catch (e) {
      // Another session (or a terminal) started it meanwhile: use that one.
      if (!(await isSocketLive(paths.socket)))
        throw new RequestError(-32603, `yoi: cannot start pod ${opts.podName}: ${(e as Error).message}`);
    }
  }
  const early: Array<{ event: Event } | { extension: UnknownEvent }> = [];
  const startAlerts: string[] = [];
  let afterHistory = false;
  let released = false;
  const keep = (item: { event: Event } | { extension: UnknownEvent }) =>
    void (afterHistory && early.length < MAX_EARLY && early.push(item));
  const onEvent = (e: Event) => {
    if (released) return;
    if (e.event === 'history' && !afterHistory) afterHistory = true;
    else if (e.event === 'alert' && !afterHistory && started && startAlerts.length < MAX_START_ALERTS)
      startAlerts.push(`⚠ ${e.data.level} (${e.data.source}): ${e.data.message}`);
    else keep({ event: e });
  };
  // Listening from the first line: the alerts a pod replays come right behind its welcome.
  const client = await PodClient.connect({
    socketPath: paths.socket,
    clientName: opts.clientName,
    protocol: 2,
    onEvent,
  });
  const offUnknown = client.onUnknownEvent((e) => keep({ extension: e }));
  const release = () => {
    released = true;
    offUnknown();
    return early.splice(0);
  };
  const reply = await client.request({ method: 'get_history' });
  if (reply.event !== 'history') throw new RequestError(-32603, `yoi: pod ${opts.podName} did not send its history`);
  if (!sameDir(reply.data.greeting.cwd, opts.cwd)) {
    release();
    await client.close();
    throw new RequestError(
      -32603,
      `yoi: pod ${opts.podName} already runs for ${reply.data.greeting.cwd}; give this project its own \`name\` in yoi.config.ts`,
    );
  }
  return { client, history: reply.data, started, startAlerts, release };
}

async function start(opts: OpenPodOptions, base: string): Promise<void> {
  const { startDetached } = await import('../startDetached.js');
  const argv = ['--name', opts.podName, ...(opts.resume !== undefined ? ['--resume', opts.resume] : [])];
  const servers = opts.mcpServers && Object.keys(opts.mcpServers).length > 0 ? opts.mcpServers : undefined;
  if (!servers) {
    await startDetached(argv, { name: opts.podName }, { cwd: opts.cwd });
    return;
  }
  // The servers' variables may be secrets: a private file the pod reads once, not its command line.
  ensurePrivateDir(base);
  const dir = fs.mkdtempSync(path.join(base, '.acp-'));
  const file = path.join(dir, 'mcp-servers.json');
  try {
    fs.writeFileSync(file, JSON.stringify(servers), { mode: 0o600, flag: 'wx' });
    await startDetached([...argv, '--mcp-servers', file], { name: opts.podName }, { cwd: opts.cwd });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function sameDir(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(a) === real(b);
}
