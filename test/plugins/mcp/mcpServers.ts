import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { McpConfigSchema } from '../../../plugins/mcp/McpConfigSchema.js';
import { McpManager } from '../../../plugins/mcp/McpManager.js';
import type { ToolContext } from '../../../core/tools/Tool.js';

/** Real MCP servers the tests run as processes (node + the server's entry file). */
const root = fileURLToPath(new URL('../../../', import.meta.url));
export const NODE = process.execPath;
export const EVERYTHING = `${root}node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
export const FILESYSTEM = `${root}node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`;
export const FIXTURE = `${root}test/fixtures/mcp/fixtureServer.mjs`;
export const HTTP_FIXTURE = `${root}test/fixtures/mcp/httpServer.mjs`;
export const FLOODING = `${root}test/fixtures/mcp/floodingServer.mjs`;

export const everything = () => ({ command: NODE, args: [EVERYTHING, 'stdio'] });
export const fixture = (...args: string[]) => ({ command: NODE, args: [FIXTURE, ...args] });

/** A tool call's context for calling MCP pod tools directly. */
export function toolCtx(extra: Partial<ToolContext> = {}): ToolContext {
  return {
    signal: new AbortController().signal,
    podName: 'p',
    cwd: '/',
    projectDir: '/',
    callId: 'c1',
    launch: {},
    services: { alert: () => undefined } as never,
    ...extra,
  };
}

/** A manager of `servers` for pod `p` in a new temp project (`servers` may use the dir); the caller closes it. */
export function newManager(servers: Record<string, unknown> | ((dir: string) => Record<string, unknown>)) {
  const alerts: string[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-mcp-'));
  const m = new McpManager(McpConfigSchema.parse({ servers: typeof servers === 'function' ? servers(dir) : servers }), {
    podName: 'p',
    projectDir: dir,
    cwd: dir,
    env: process.env,
    alert: (a) => alerts.push(a),
  });
  return { m, alerts, dir, at: (file: string) => path.join(dir, file) };
}

/** Starts the HTTP fixture server; resolves with its URL once it listens. */
export function startHttpServer(
  args: string[] = [],
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [HTTP_FIXTURE, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) {
        resolve({
          url: `http://127.0.0.1:${m[1]}/mcp`,
          child,
          stop: async () => {
            child.stdin!.end();
            child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`http fixture exited (${code})`)));
  });
}

/** True while /proc shows the pid as a living (not zombie) process. */
export function processAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Polls `cond` until true (no timing assertion: a generous deadline only bounds a hang). */
export async function eventually(cond: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
