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
    whenAbandoned: (n) =>
      new Promise<void>((resolve) => {
        if (abandoned >= n) resolve();
        else waiters.push({ n, resolve });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// The streaming formats live with the benchmarks (plain JS there, so they run on plain node).
export { anthropicStream, openAiStream, responsesStream, type StreamScript } from '../../bench/support/llmStreams.js';
