import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  LineReader,
  V1_METHOD_NAMES,
  decodeMethodLine,
  encodeEvent,
  parseLine,
  type Event,
  type Method,
} from '../../core/protocol/index.js';

/**
 * A stand-in for a v1-only pod (the original Rust yoi), answering exactly as the golden vectors
 * (test/fixtures/yoi-v1/) and the original's server do: no `hello`, no `request_id`, no `ack`,
 * every event broadcast (refusals too) except `history`, which goes to the requester; an
 * unknown method is answered with a broadcast `error{internal,"invalid method: unknown variant
 * `x`"}`; a cancelled run ends with `error{internal,"Cancelled"}` and no `run_end`; a pause while
 * paused is a no-op. Lines are written with yoi's encoder, which reproduces the vectors' bytes.
 */
export interface V1PodOptions {
  /** Accept connections and never answer anything (a hung pod). */
  silent?: boolean;
  /** Alerts replayed to every new connection. */
  alerts?: string[];
  /** What a run does. `hold` stops after its first delta until cancel or pause. */
  run?: 'reply' | 'hold' | 'tool';
  greeting?: { pod_name: string; cwd: string; provider: string; model: string; scope_summary: string; tools: string[] };
}

export interface V1Pod {
  socket: string;
  /** Every line received, in order. */
  received: string[];
  /** Writes a raw line to every connection (what a newer pod or a plugin might send). */
  broadcastLine(line: string): void;
  /** Resolves once `n` lines were received. */
  receivedCount(n: number): Promise<void>;
  close(): Promise<void>;
}

type State = 'idle' | 'running' | 'paused';

export async function startV1Pod(opts: V1PodOptions = {}): Promise<V1Pod> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-v1-'));
  const socket = path.join(dir, 'sock');
  const conns = new Set<net.Socket>();
  const received: string[] = [];
  const waiters: (() => void)[] = [];
  const history: unknown[] = [];
  const greeting = opts.greeting ?? {
    pod_name: 'legacy',
    cwd: dir,
    provider: 'anthropic',
    model: 'claude',
    scope_summary: `Writable:\n  - ${dir}`,
    tools: ['Read', 'Write'],
  };
  let state: State = 'idle';
  let turn = 0;

  const write = (s: net.Socket, e: Event) => s.write(`${encodeEvent(e)}\n`);
  const broadcast = (e: Event) => conns.forEach((s) => write(s, e));

  const reply = (text: string, finish = true) => {
    broadcast({ event: 'turn_start', data: { turn } });
    broadcast({ event: 'text_delta', data: { text } });
    if (!finish) return;
    broadcast({ event: 'text_done', data: { text } });
    broadcast({ event: 'usage', data: { input_tokens: 120, output_tokens: 7 } });
    broadcast({ event: 'turn_end', data: { turn: turn++, result: 'finished' } });
  };
  const endRun = () => {
    state = 'idle';
    broadcast({ event: 'run_end', data: { result: 'finished' } });
  };

  const run = (input: string) => {
    history.push({ type: 'message', role: 'user', content: [{ type: 'text', text: input }] });
    state = 'running';
    if (opts.run === 'hold') return reply('working', false);
    if (opts.run === 'tool') {
      broadcast({ event: 'turn_start', data: { turn } });
      broadcast({ event: 'tool_call_start', data: { id: 'call_1', name: 'Read' } });
      broadcast({
        event: 'tool_call_done',
        data: { id: 'call_1', name: 'Read', arguments: '{"file_path":"src/math.ts"}' },
      });
      broadcast({ event: 'usage', data: { input_tokens: 100, output_tokens: 3 } });
      broadcast({ event: 'turn_end', data: { turn: turn++, result: 'finished' } });
      broadcast({
        event: 'tool_result',
        data: { id: 'call_1', summary: 'Read 6 lines from /p/src/math.ts', output: '1\tx', is_error: false },
      });
    }
    reply(`v1 says: ${input}`);
    history.push({ type: 'message', role: 'assistant', content: [{ type: 'text', text: `v1 says: ${input}` }] });
    endRun();
  };

  const handle = (conn: net.Socket, line: string) => {
    const decoded = decodeMethodLine(line);
    const name = decoded.ok ? decoded.value.method : undefined;
    if (!decoded.ok || !V1_METHOD_NAMES.includes(name!)) {
      // The original broadcasts its decode error to every client (one of its known bugs).
      const parsed = parseLine(line);
      const raw =
        parsed.ok && typeof parsed.value === 'object' && parsed.value !== null
          ? (parsed.value as { method?: unknown }).method
          : undefined;
      const message =
        typeof raw === 'string'
          ? `invalid method: unknown variant \`${raw}\``
          : `invalid method: ${decoded.ok ? 'bad params' : decoded.error}`;
      broadcast({ event: 'error', data: { code: 'internal', message } });
      return;
    }
    const method = decoded.value as Method;
    switch (method.method) {
      case 'get_history':
        write(conn, { event: 'history', data: { items: history, greeting } });
        return;
      case 'run': {
        if (state === 'running')
          return broadcast({
            event: 'error',
            data: { code: 'already_running', message: 'Pod is already executing a turn' },
          });
        broadcast({ event: 'user_message', data: { segments: method.params.input } });
        const text = method.params.input
          .map((s) => ('content' in s && typeof s.content === 'string' ? s.content : ''))
          .join('');
        return run(text);
      }
      case 'cancel':
        if (state !== 'running')
          return broadcast({ event: 'error', data: { code: 'not_running', message: 'Pod is not running' } });
        state = 'idle';
        return broadcast({ event: 'error', data: { code: 'internal', message: 'Cancelled' } });
      case 'pause':
        if (state === 'idle')
          return broadcast({ event: 'error', data: { code: 'not_running', message: 'Pod is not running' } });
        if (state === 'paused') return; // a no-op in the original
        state = 'paused';
        return broadcast({ event: 'run_end', data: { result: 'paused' } });
      case 'resume':
        if (state === 'running')
          return broadcast({
            event: 'error',
            data: { code: 'already_running', message: 'Pod is already executing a turn' },
          });
        if (state !== 'paused')
          return broadcast({ event: 'error', data: { code: 'not_paused', message: 'Pod is not paused' } });
        state = 'running';
        reply('resumed');
        return endRun();
      case 'shutdown':
        broadcast({ event: 'shutdown' });
        for (const s of conns) s.end();
        server.close();
        return;
      default:
        return; // notify, pod_event: taken silently
    }
  };

  const server = net.createServer((conn) => {
    conns.add(conn);
    conn.on('close', () => conns.delete(conn));
    conn.on('error', () => undefined);
    if (opts.silent) return;
    for (const message of opts.alerts ?? [])
      write(conn, { event: 'alert', data: { level: 'warn', source: 'pod', message, timestamp_ms: 1700000000000 } });
    const reader = new LineReader({
      onLine: (line) => {
        received.push(line);
        for (const w of waiters.splice(0)) w();
        handle(conn, line);
      },
      onError: () => undefined,
    });
    conn.on('data', (chunk: Buffer) => reader.push(chunk));
  });
  if (opts.silent) {
    server.on('connection', (conn) =>
      conn.on('data', (d: Buffer) => {
        received.push(...d.toString().split('\n').filter(Boolean));
        for (const w of waiters.splice(0)) w();
      }),
    );
  }
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return {
    socket,
    received,
    broadcastLine: (line) => conns.forEach((s) => s.write(`${line}\n`)),
    async receivedCount(n) {
      while (received.length < n) await new Promise<void>((r) => waiters.push(r));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of conns) s.destroy();
        server.close(() => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        if (!server.listening) {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        }
      }),
  };
}
