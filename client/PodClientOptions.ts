import type { Event, EventOf, Method } from '../core/protocol/index.js';

/** An event this build cannot read (a newer pod's, a plugin's): its name, raw data and line. */
export interface UnknownEvent {
  event: string;
  data?: unknown;
  seq?: number;
  request_id?: string;
  line: string;
}

/** What a client talks over: the Unix socket, or a WebSocket (whole lines written, bytes read). */
export interface ClientLink {
  write(data: string): unknown;
  end(): unknown;
  destroy(): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface PodClientOptions {
  /** The pod's Unix socket; or `url`. */
  socketPath?: string;
  /** A pod's network listener, `ws://HOST:PORT` or `wss://HOST:PORT` (instead of `socketPath`). */
  url?: string;
  /** The bearer token `url` needs. */
  token?: string;
  /** CA certificate(s) to trust for a `wss://` url (besides the system's and NODE_EXTRA_CA_CERTS). */
  ca?: string | Buffer;
  /** Sent in `hello` (`name/version`). */
  clientName?: string;
  /** Sent in `hello` as `auth`: a credential the pod checks (a child pod's report secret). */
  auth?: string;
  /** 2 (default) negotiates the v2 extensions, falling back to v1 for a v1 pod; 1 speaks plain v1. */
  protocol?: 1 | 2;
  connectTimeoutMs?: number;
  /** Default timeout of `request()`. */
  requestTimeoutMs?: number;
  /** How long to wait for `welcome` before taking the pod for a v1 pod. */
  welcomeTimeoutMs?: number;
  /** The longest line taken from the pod (default 256 MiB); a longer one fails the requests waiting. */
  maxReplyBytes?: number;
  /**
   * Send `hello` without a `request_id` and take the first `welcome` as its answer (the line a
   * child's report outbox has always sent its parent).
   */
  bareHello?: boolean;
  /** A listener registered before `hello`, so it also sees what the pod sends on connect (replayed alerts). */
  onEvent?: (event: Event) => void;
  /** Likewise for events this build cannot decode (a plugin's: the asks a pod re-sends on connect). */
  onUnknownEvent?: (event: UnknownEvent) => void;
}

/** A method line as `request()` and `send()` take it (the client adds the `request_id`). */
export type MethodInput = Method extends infer M ? (M extends Method ? Omit<M, 'request_id'> : never) : never;
/** The v2 `welcome` a pod greeted this client with. */
export type WelcomeData = EventOf<'welcome'>['data'];
