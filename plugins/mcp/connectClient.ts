import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { boundedFetch } from './boundedFetch.js';
import { loadSdk, type Sdk } from './loadSdk.js';
import { oneLine as describe } from './oneLine.js';
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
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: config.env ?? {},
      cwd: config.cwd ? path.resolve(opts.projectDir, config.cwd) : opts.cwd,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    const client = newClient(sdk, opts);
    try {
      await client.connect(transport, { timeout: opts.timeoutMs });
    } catch (e) {
      await client.close().catch(() => undefined);
      const why = stderr.last();
      throw new Error(`${describe(e)}${why ? ` (stderr: ${why})` : ''}`);
    }
    return { client, transport: 'stdio', pid: transport.pid ?? undefined, stderr };
  }
  const headers = httpHeaders(config, opts.env);
  const url = new URL(config.url);
  const streamable = newClient(sdk, opts);
  try {
    await streamable.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: boundedFetch() }),
      {
        timeout: opts.timeoutMs,
      },
    );
    return { client: streamable, transport: 'streamable-http' };
  } catch (first) {
    await streamable.close().catch(() => undefined);
    const sse = newClient(sdk, opts);
    try {
      await sse.connect(new SSEClientTransport(url, { requestInit: { headers }, fetch: boundedFetch() }) as Transport, {
        timeout: opts.timeoutMs,
      });
      return { client: sse, transport: 'sse' };
    } catch (second) {
      await sse.close().catch(() => undefined);
      throw new Error(`streamable HTTP: ${describe(first)}; SSE: ${describe(second)}`);
    }
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
