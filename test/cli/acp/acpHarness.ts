import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  ClientSideConnection,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { BIN, yoi } from '../../support/runCli.js';

export interface AcpEditor {
  readonly conn: ClientSideConnection;
  readonly child: ChildProcessWithoutNullStreams;
  /** Every session/update received, in order. */
  readonly updates: SessionNotification[];
  /** Permission requests as they arrive; answer by resolving `answer`. */
  readonly asks: Array<{ request: RequestPermissionRequest; answer: (r: RequestPermissionResponse) => void }>;
  stderr(): string;
  /** Resolves once an update matching `pred` arrived (past ones included). */
  until(pred: (u: SessionUpdate) => boolean, timeoutMs?: number): Promise<SessionUpdate>;
  untilAsk(
    timeoutMs?: number,
  ): Promise<{ request: RequestPermissionRequest; answer: (r: RequestPermissionResponse) => void }>;
  /** Resolves once `yoi acp` has said `text` on stderr. */
  untilSaid(text: string, timeoutMs?: number): Promise<void>;
  /** Closes stdin (the editor quits) and waits for the process to exit. */
  close(): Promise<number | null>;
}

/** The built `yoi acp` as an editor starts it, driven by the SDK's client side over its stdio. */
export function startEditor(cwd: string, env: NodeJS.ProcessEnv): AcpEditor {
  const child = spawn(process.execPath, [BIN, 'acp'], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  const updates: SessionNotification[] = [];
  const asks: AcpEditor['asks'] = [];
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const w of [...wakers]) w();
  };
  child.stderr.on('data', (d) => {
    err += d;
    wake();
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const conn = new ClientSideConnection(
    () => ({
      sessionUpdate: async (n) => {
        updates.push(n);
        wake();
      },
      requestPermission: (request) =>
        new Promise<RequestPermissionResponse>((answer) => {
          asks.push({ request, answer });
          wake();
        }),
    }),
    stream,
  );
  const waitFor = <T>(find: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found !== undefined) {
          clearTimeout(timer);
          wakers.delete(check);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        wakers.delete(check);
        reject(
          new Error(
            `timed out waiting for ${what}; saw ${JSON.stringify(updates.map((u) => u.update.sessionUpdate))}; stderr: ${err}`,
          ),
        );
      }, timeoutMs);
      wakers.add(check);
      check();
    });
  let asked = 0;
  return {
    conn,
    child,
    updates,
    asks,
    stderr: () => err,
    until: (pred, timeoutMs) => waitFor(() => updates.map((u) => u.update).find(pred), 'an update', timeoutMs),
    untilAsk: (timeoutMs) =>
      waitFor(() => (asks.length > asked ? asks[asked++] : undefined), 'a permission request', timeoutMs),
    untilSaid: async (text, timeoutMs) => {
      await waitFor(() => (err.includes(text) ? true : undefined), JSON.stringify(text), timeoutMs);
    },
    close: async () => {
      child.stdin.end();
      return exited;
    },
  };
}

/** The text of every agent message chunk so far, joined. */
export function agentTextOf(updates: readonly SessionNotification[]): string {
  return updates
    .map((u) => u.update)
    .filter((u) => u.sessionUpdate === 'agent_message_chunk')
    .map((u) => (u as { content: { type: string; text?: string } }).content.text ?? '')
    .join('');
}

/** A project whose pods run the scripted provider and the stand-in permission plugin. */
export function acpProject(
  root: string,
  script: unknown[],
  extra: Record<string, unknown> = {},
): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = path.join(root, 'proj');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'script.json'), JSON.stringify(script));
  const plugin = JSON.stringify(new URL('../../fixtures/acp/fakePermissions.mjs', import.meta.url).pathname);
  fs.writeFileSync(
    path.join(dir, 'yoi.config.mjs'),
    [
      "import { defaultPlugins } from 'yoi';",
      `import { fakePermissions } from ${plugin};`,
      `export default { model: { provider: 'scripted', script: 'script.json' }, plugins: [...defaultPlugins({ exclude: ['yoi:permissions'] }), fakePermissions()], ...${JSON.stringify(extra)} };`,
    ].join('\n'),
  );
  return { dir, env: { YOI_RUNTIME_DIR: path.join(root, 'run') } };
}

/** An editor update that is an agent message chunk holding `text`. */
export const isChunk = (text: string) => (u: SessionUpdate) =>
  u.sessionUpdate === 'agent_message_chunk' && (u.content as { text?: string }).text?.includes(text) === true;

/** Editors and pods a test starts, closed and stopped by `cleanups` (run after each test). */
export function acpCleanups(cleanups: (() => Promise<unknown> | void)[]) {
  return {
    editor(cwd: string, env: NodeJS.ProcessEnv): AcpEditor {
      const e = startEditor(cwd, env);
      cleanups.push(() => e.close());
      return e;
    },
    /** Stops every pod under the test's runtime dir (they are detached: they outlive `yoi acp`). */
    stopPodsAfter(dir: string, env: NodeJS.ProcessEnv): void {
      cleanups.push(() => {
        const base = env.YOI_RUNTIME_DIR!;
        for (const name of fs.existsSync(base) ? fs.readdirSync(base) : []) {
          if (fs.existsSync(path.join(base, name, 'sock'))) yoi(['pod', 'stop', '--pod', name], { cwd: dir, env });
        }
      });
    },
  };
}
