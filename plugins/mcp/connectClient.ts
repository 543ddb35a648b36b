import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { findOnPath } from '../bash/probeSandbox.js';
import { boundedFetch } from './boundedFetch.js';
import { boundUnreadSends } from './boundUnreadSends.js';
import { boundNotificationRate } from './boundNotificationRate.js';
import { loadSdk, type Sdk } from './loadSdk.js';
import { oneLine as describe } from './oneLine.js';
import { descendantsOf, killSurvivors, processId, sessionOf, type ProcessId } from './processTree.js';
import { isStdio, type HttpServerConfig, type McpServerConfig } from './McpConfigSchema.js';
import type { McpServerStatus } from './McpStateSchema.js';
import { StderrTail } from './StderrTail.js';

export interface ConnectOptions {
  /** Where relative `cwd`s are resolved, and the default cwd of stdio servers. */
  projectDir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Set on the client before it connects, so no early message is missed. */
  prepare(client: Client, sdk: Sdk): void;
}

export interface Connected {
  client: Client;
  transport: McpServerStatus['transport'];
  /** Process id of a stdio server. */
  pid?: number;
  stderr?: StderrTail;
}

const CLIENT_INFO = { name: 'yoi', version: '0.1.0' };

/**
 * Connects one MCP client to a server: a stdio server as a child process (stderr kept as a
 * bounded tail), a URL by streamable HTTP, or — when that fails — by the older HTTP+SSE
 * transport. Rejects with one line (both attempts' reasons for a URL).
 */
export async function connectClient(config: McpServerConfig, opts: ConnectOptions): Promise<Connected> {
  const sdk = await loadSdk();
  const { StdioClientTransport, StreamableHTTPClientTransport, SSEClientTransport } = sdk;
  if (isStdio(config)) {
    const stderr = new StderrTail();
    const cwd = config.cwd ? path.resolve(opts.projectDir, config.cwd) : opts.cwd;
    const launch = inOwnSession(config.command, config.args ?? [], cwd, { ...process.env, ...config.env });
    const transport = new StdioClientTransport({
      command: launch.command,
      args: launch.args,
      env: config.env ?? {},
      cwd,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    boundUnreadSends(transport);
    boundNotificationRate(transport);
    // Noted once spawned: the SDK closes the transport (forgetting the pid) when initialize fails.
    let leader: ProcessId | number | undefined;
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      if (transport.pid) leader = processId(transport.pid) ?? transport.pid;
    };
    const client = newClient(sdk, opts);
    try {
      await client.connect(transport, { timeout: opts.timeoutMs });
    } catch (e) {
      // A server that never finished starting leaves nothing running either (its children included).
      const tree = typeof leader === 'object' ? [leader, ...descendantsOf(leader.pid)] : [];
      await client.close().catch(() => undefined);
      if (leader !== undefined) killSurvivors([...tree, ...sessionOf(leader)]);
      const why = stderr.last();
      throw new Error(`${describe(e)}${why ? ` (stderr: ${why})` : ''}`);
    }
    return { client, transport: 'stdio', pid: transport.pid ?? undefined, stderr };
  }
  const headers = httpHeaders(config, opts.env);
  const url = new URL(config.url);
  const streamable = newClient(sdk, opts);
  try {
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: boundedFetch() });
    boundNotificationRate(transport);
    await streamable.connect(transport, { timeout: opts.timeoutMs });
    return { client: streamable, transport: 'streamable-http' };
  } catch (first) {
    await streamable.close().catch(() => undefined);
    const sse = newClient(sdk, opts);
    try {
      const transport = new SSEClientTransport(url, { requestInit: { headers }, fetch: boundedFetch() }) as Transport;
      boundNotificationRate(transport);
      await sse.connect(transport, { timeout: opts.timeoutMs });
      return { client: sse, transport: 'sse' };
    } catch (second) {
      await sse.close().catch(() => undefined);
      throw new Error(`streamable HTTP: ${describe(first)}; SSE: ${describe(second)}`);
    }
  }
}

/** Where util-linux's setsid(1) is (root's own, not writable by others), looked up once. */
let setsidPath: string | null | undefined;
function setsidBinary(): string | null {
  if (setsidPath !== undefined) return setsidPath;
  setsidPath = null;
  for (const candidate of ['/usr/bin/setsid', '/bin/setsid']) {
    const st = fs.statSync(candidate, { throwIfNoEntry: false });
    if (st?.isFile() && st.uid === 0 && (st.mode & 0o022) === 0) return (setsidPath = candidate);
  }
  return setsidPath;
}

/**
 * The server as the leader of a session of its own (setsid(1) execs it in place: same pid), so
 * what it starts stays findable after it exits (see `sessionOf`); as it is where there is no setsid.
 */
function inOwnSession(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): { command: string; args: string[] } {
  const setsid = setsidBinary();
  // A command that cannot run is spawned as is: its ENOENT says more than setsid's exit 127.
  return setsid && runnable(command, cwd, env)
    ? { command: setsid, args: ['--', command, ...args] }
    : { command, args };
}

function runnable(command: string, cwd: string, env: NodeJS.ProcessEnv): boolean {
  if (!command.includes('/')) return findOnPath(command, env.PATH) !== undefined;
  const file = path.resolve(cwd, command);
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function newClient(sdk: Sdk, opts: ConnectOptions): Client {
  const client = new sdk.Client(CLIENT_INFO, { capabilities: {} });
  opts.prepare(client, sdk);
  return client;
}

/** `headers`, then `headersEnv` read now (a missing variable is an error naming it, never an empty header). */
function httpHeaders(config: HttpServerConfig, env: NodeJS.ProcessEnv): Record<string, string> {
  const headers: Record<string, string> = { ...config.headers };
  for (const [header, variable] of Object.entries(config.headersEnv ?? {})) {
    const value = env[variable];
    if (value === undefined || value === '')
      throw new Error(`header ${header}: environment variable ${variable} is not set`);
    headers[header] = value;
  }
  return headers;
}
