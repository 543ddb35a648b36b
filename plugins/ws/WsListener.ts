import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { WebSocketTransport, type Transport } from '../../core/api.js';
import { bearerMatches } from './bearer.js';
import type { FailureLimiter } from './FailureLimiter.js';
import { listenError, type ListenerPlan } from './ListenConfig.js';

export interface ListenerDeps {
  /** SHA-256 of the token this listener requires. */
  readonly digest: Buffer;
  /**
   * The token is too long to be guessed (see GUESS_PROOF_CHARS): it is checked before the rate
   * limit, so wrong tokens sent from its holder's address do not lock the holder out.
   */
  readonly guessProof: boolean;
  /** Failed attempts per remote address (shared by the pod's listeners). */
  readonly limiter: FailureLimiter;
  /** `limits.maxLineBytes`: the largest frame accepted. */
  readonly maxLineBytes: number;
  /** Whether the pod serves clients now (between podStart and podStop): `/readyz`, upgrades. */
  ready(): boolean;
  serve(transport: Transport): void;
  /** A refused attempt, for the pod log (bounded by the caller). */
  refused(address: string, status: number, why: string): void;
}

/**
 * One `ws://` or `wss://` listener: an HTTP(S) server whose upgrades become pod clients once
 * they pass the checks — rate limit per address (429; a token too long to guess passes it),
 * browser Origin (403), bearer token (401) — all before the WebSocket handshake is completed. `GET /healthz` and `GET /readyz` answer
 * without auth and say nothing but `ok`/`ready`. Slow or silent handshakes are cut after
 * `handshakeTimeoutMs`, a probe's connection closes after its answer, and connections that are
 * not clients hold at most half of the `maxConnections` (a new one closes the oldest).
 */
export class WsListener {
  private readonly server: http.Server;
  private readonly wss: WebSocketServer;
  /** Connections that have not become WebSocket clients (yet): closed when the listener stops. */
  private readonly pending = new Set<Duplex>();
  /** The same connections by remote address, oldest first: eviction picks the busiest address. */
  private readonly pendingByAddress = new Map<string, Set<Duplex>>();
  /** The URL it listens on (the real port once listening). */
  url: string;

  constructor(
    private readonly plan: ListenerPlan,
    private readonly deps: ListenerDeps,
  ) {
    this.url = plan.url;
    const timeouts = {
      headersTimeout: plan.handshakeTimeoutMs,
      requestTimeout: plan.handshakeTimeoutMs,
      // How often Node looks for requests past those timeouts (30 s by default).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(plan.handshakeTimeoutMs / 4))),
      keepAliveTimeout: 5000,
    };
    if (plan.secure) {
      const read = (file: string, what: string) => {
        try {
          return fs.readFileSync(file);
        } catch (e) {
          throw listenError(
            plan.url,
            `cannot read the TLS ${what} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
          );
        }
      };
      const cert = read(plan.tlsCert!, 'certificate');
      const key = read(plan.tlsKey!, 'key');
      try {
        this.server = https.createServer({ ...timeouts, cert, key, handshakeTimeout: plan.handshakeTimeoutMs });
      } catch (e) {
        throw listenError(plan.url, `the TLS certificate or key is not usable: ${(e as Error).message}`);
      }
    } else {
      this.server = http.createServer(timeouts);
    }
    this.server.maxConnections = plan.maxConnections;
    this.wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: deps.maxLineBytes,
      // Invalid UTF-8 reaches the pod's line reader, which answers it like on the socket.
      skipUTF8Validation: true,
    });
    // The socket an upgrade arrives on: the TCP one, or over TLS the TLS one (a TLS handshake
    // that never ends is cut by `handshakeTimeout`).
    this.server.on(plan.secure ? 'secureConnection' : 'connection', (socket: Duplex) => {
      // Connections without a token cannot hold every slot: past half of them, a new one closes
      // the oldest that is not a client yet (1,024 silent connections locked clients out), of
      // the address that holds the most, so one address flooding evicts its own, not others'.
      if (this.pending.size >= Math.max(1, Math.floor(plan.maxConnections / 2))) this.evictPending();
      const address = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown';
      this.pending.add(socket);
      let mine = this.pendingByAddress.get(address);
      if (!mine) this.pendingByAddress.set(address, (mine = new Set()));
      mine.add(socket);
      socket.once('close', () => this.settle(socket, address));
    });
    this.server.on('request', (req, res) => this.answer(req, res));
    this.server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(req, socket, head),
    );
    this.server.on('clientError', (_err, socket: Duplex) => socket.destroy());
    this.server.on('tlsClientError', () => undefined);
  }

  /** The oldest pending connection of the address with the most pending ones is closed. */
  private evictPending(): void {
    let busiest: Set<Duplex> | undefined;
    for (const set of this.pendingByAddress.values()) if (!busiest || set.size > busiest.size) busiest = set;
    const oldest = busiest?.values().next().value;
    if (!oldest) return;
    this.pending.delete(oldest);
    busiest!.delete(oldest);
    oldest.destroy();
  }

  /** A connection is no longer pending: it closed, or it became a client. */
  private settle(socket: Duplex, address: string): void {
    this.pending.delete(socket);
    const mine = this.pendingByAddress.get(address);
    if (!mine) return;
    mine.delete(socket);
    if (mine.size === 0) this.pendingByAddress.delete(address);
  }

  listen(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.server.once('error', (e: NodeJS.ErrnoException) => {
        const why =
          e.code === 'EADDRINUSE'
            ? 'the port is in use'
            : e.code === 'EACCES'
              ? 'permission denied (a port below 1024?)'
              : e.code === 'EADDRNOTAVAIL'
                ? 'no such address on this machine'
                : e.message;
        reject(listenError(this.plan.url, why));
      });
      this.server.listen(this.plan.port, this.plan.host, () => {
        const address = this.server.address();
        const port = typeof address === 'object' && address ? address.port : this.plan.port;
        const host = this.plan.host.includes(':') ? `[${this.plan.host}]` : this.plan.host;
        this.url = `${this.plan.secure ? 'wss' : 'ws'}://${host}:${port}`;
        resolve(this.url);
      });
    });
  }

  /** Stops accepting and closes what has not become a client (clients are closed by the pod). */
  close(): void {
    this.server.close();
    for (const socket of this.pending) socket.destroy();
    this.pending.clear();
    this.pendingByAddress.clear();
  }

  /** Plain HTTP: the two probes, and nothing else. */
  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '').split('?')[0];
    const method = req.method ?? '';
    const send = (status: number, body: string) => {
      res.writeHead(status, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        'content-length': Buffer.byteLength(body),
        // One probe per connection: kept alive by probes, a connection never timed out.
        connection: 'close',
      });
      res.end(method === 'HEAD' ? undefined : body);
    };
    if (method !== 'GET' && method !== 'HEAD') return send(405, 'method not allowed\n');
    if (path === '/healthz') return send(200, 'ok\n');
    if (path === '/readyz') return this.deps.ready() ? send(200, 'ready\n') : send(503, 'not ready\n');
    send(404, 'not found\n');
  }

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const address = req.socket.remoteAddress ?? 'unknown';
    const { limiter } = this.deps;
    if (!this.deps.ready()) return reject(socket, 503, 'the pod is not serving clients now');
    const presented = bearerMatches(req.headers.authorization, this.deps.digest);
    // The limit slows guessing; a token nobody can guess needs none, and its holder must not be
    // locked out by someone on the same address sending wrong ones. A short token keeps it first.
    if (!(presented && this.deps.guessProof) && !limiter.allows(address)) {
      const seconds = Math.max(1, Math.ceil(limiter.retryAfterMs(address) / 1000));
      return reject(socket, 429, 'too many failed attempts from this address', { 'Retry-After': String(seconds) });
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.plan.allowOrigins.includes(origin)) {
      limiter.fail(address);
      this.deps.refused(address, 403, `browser Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed`);
      return reject(socket, 403, 'this Origin is not allowed');
    }
    if (!presented) {
      limiter.fail(address);
      this.deps.refused(
        address,
        401,
        req.headers.authorization === undefined ? 'no bearer token' : 'wrong bearer token',
      );
      return reject(socket, 401, 'a valid bearer token is required', { 'WWW-Authenticate': 'Bearer' });
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.settle(socket, address);
      if ('setKeepAlive' in socket && typeof socket.setKeepAlive === 'function') socket.setKeepAlive(true, 30_000);
      this.deps.serve(new WebSocketTransport(ws, socket));
    });
  }
}

/** Answers an upgrade with an HTTP error and closes it (the WebSocket handshake never completes). */
function reject(socket: Duplex, status: number, body: string, headers: Record<string, string> = {}): void {
  const lines = [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}`,
    'Connection: close',
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body) + 1}`,
  ];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}\n`);
  setTimeout(() => socket.destroy(), 2000).unref();
}
