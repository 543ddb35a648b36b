import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One scripted answer of the fake server, consumed by one HTTP request. */
export type FakeReply =
  /** A server-sent-event stream: `events` are raw SSE frames (see the builders below). */
  | {
    kind: 'sse';
    events: string[];
    /** Pause between frames (the first frame is sent at once). */
    delayMs?: number;
    /** Destroy the connection after this many frames (a reset mid-stream). */
    resetAfter?: number;
    /** Keep the response open after the last frame (a stalled server). */
    hang?: boolean;
  }
  /** A plain JSON answer (errors: 401, 429, 500 ...). */
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  /** Destroy the connection before answering (a connection reset). */
  | { kind: 'reset' };

export interface RecordedRequest {
  /** When the request's body had arrived (`performance.now()`). */
  at: number;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface FakeLlmServer {
  /** `http://127.0.0.1:<port>/v1`, the `baseURL` to configure. */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  /** Streams the client closed before the server finished them (aborts). */
  readonly abandoned: number;
  reply(...replies: FakeReply[]): void;
  /** Resolves once `n` streams were abandoned by the client. */
  whenAbandoned(n: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A local HTTP server speaking just enough of the OpenAI chat-completions and Anthropic
 * messages APIs for the real SDK code paths: it records each request and answers with the
 * next scripted reply (an unscripted request gets a 500).
 */
export async function startFakeLlmServer(): Promise<FakeLlmServer> {
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  let abandoned = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const noteAbandoned = () => {
    abandoned++;
    for (const w of waiters.filter((w) => abandoned >= w.n)) w.resolve();
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep the raw text
      }
      requests.push({ at: performance.now(), path: req.url ?? '', headers: req.headers, body });
      const reply = queue.shift() ?? { kind: 'json', status: 500, body: { error: { message: 'no reply scripted' } } };
      void answer(reply, res);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function answer(reply: FakeReply, res: http.ServerResponse): Promise<void> {
    if (reply.kind === 'reset') {
      res.socket?.destroy();
      return;
    }
    if (reply.kind === 'json') {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body));
      return;
    }
    let finished = false;
    res.on('close', () => {
      if (!finished) noteAbandoned();
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (let i = 0; i < reply.events.length; i++) {
      if (res.destroyed) return;
      if (reply.resetAfter !== undefined && i >= reply.resetAfter) {
        finished = true;
        res.socket?.destroy();
        return;
      }
      if (i > 0 && reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      // Wait for the frame to leave, so a reset after it really comes mid-stream.
      await new Promise<void>((r) => res.write(reply.events[i], () => r()));
    }
    if (reply.hang) return;
    finished = true;
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get abandoned() {
      return abandoned;
    },
    reply: (...replies) => void queue.push(...replies),
    whenAbandoned: (n) => new Promise<void>((resolve) => {
      if (abandoned >= n) resolve();
      else waiters.push({ n, resolve });
    }),
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

/** What a scripted model reply contains, in either API's streaming format. */
export interface StreamScript {
  /** Text deltas, in order. */
  text?: string[];
  /** Tool calls; `args` are the argument JSON split into deltas. */
  toolCalls?: { id: string; name: string; args: string[] }[];
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  /** Leave out the finish (a stream cut short by the server). */
  noFinish?: boolean;
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** An OpenAI chat-completions stream: text with no block start, tool calls with no end. */
export function openAiStream(s: StreamScript): string[] {
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }] });
  const out = [chunk({ role: 'assistant', content: '' })];
  for (const t of s.text ?? []) out.push(chunk({ content: t }));
  (s.toolCalls ?? []).forEach((c, index) => {
    out.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const a of c.args) out.push(chunk({ tool_calls: [{ index, function: { arguments: a } }] }));
  });
  if (s.noFinish) return out;
  out.push(chunk({}, s.toolCalls?.length ? 'tool_calls' : 'stop'));
  if (s.usage) {
    out.push(sse({
      id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'fake', choices: [],
      usage: { prompt_tokens: s.usage.input, completion_tokens: s.usage.output, total_tokens: s.usage.input + s.usage.output },
    }));
  }
  out.push(sse('[DONE]'));
  return out;
}

/** An Anthropic messages stream (message_start, content blocks, message_delta, message_stop). */
export function anthropicStream(s: StreamScript): string[] {
  const u = s.usage ?? { input: 10, output: 5 };
  const out = [sse({
    type: 'message_start',
    message: {
      id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-fake', content: [], stop_reason: null, stop_sequence: null,
      usage: { input_tokens: u.input, output_tokens: 1, cache_read_input_tokens: u.cacheRead ?? 0, cache_creation_input_tokens: u.cacheWrite ?? 0 },
    },
  }, 'message_start')];
  let index = 0;
  if (s.text?.length) {
    out.push(sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
    for (const t of s.text) out.push(sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } }, 'content_block_delta'));
    out.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  }
  for (const c of s.toolCalls ?? []) {
    out.push(sse({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } }, 'content_block_start'));
    for (const a of c.args) out.push(sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: a } }, 'content_block_delta'));
    out.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  }
  if (s.noFinish) return out;
  out.push(sse({
    type: 'message_delta', delta: { stop_reason: s.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: u.output },
  }, 'message_delta'));
  out.push(sse({ type: 'message_stop' }, 'message_stop'));
  return out;
}
