import path from 'node:path';
import { YoiError, z } from '../../core/api.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One network listener, as written in the config's `listen` list. */
export const ListenerSchema = z.strictObject({
  /** `ws://HOST:PORT` or `wss://HOST:PORT` (port 0: any free port, shown at start). */
  url: z.string().min(1),
  /** PEM certificate and key of a `wss://` listener (relative to the project directory). */
  tlsCert: z.string().min(1).optional(),
  tlsKey: z.string().min(1).optional(),
  /** Listening beyond loopback is refused unless this is set: the token is then all that guards the pod. */
  allowRemote: z.boolean().default(false),
  /** Browser `Origin`s accepted (exactly, e.g. `https://app.example`); any other Origin gets 403. */
  allowOrigins: z.array(z.string().min(1)).max(64).default([]),
  /** Take the token from this environment variable instead of the pod's token file. */
  tokenEnv: z.string().regex(ENV_NAME, 'must be an environment variable name').optional(),
  /** Connections at once (handshaking or open); more are closed as they arrive. */
  maxConnections: z.int().min(1).max(65_536).default(1024),
  /** A client must complete its HTTP request (headers included) within this (slowloris bound). */
  handshakeTimeoutMs: z.int().min(100).max(600_000).default(10_000),
});
export type ListenerConfig = z.output<typeof ListenerSchema>;

/** The config section `listen: [...]`: URLs, or listener objects. */
export const ListenConfigSchema = z
  .array(z.union([z.string().min(1), ListenerSchema]))
  .max(16)
  .default([]);

/** What `yoi pod start --listen … [--tls-cert --tls-key] [--token-env]` hands the plugin (`launch.listen`). */
export const ListenLaunchSchema = z.strictObject({
  urls: z.array(z.string().min(1)).max(16),
  /** Absolute paths (the CLI resolves them against its cwd). */
  tlsCert: z.string().min(1).optional(),
  tlsKey: z.string().min(1).optional(),
  tokenEnv: z.string().regex(ENV_NAME, 'must be an environment variable name').optional(),
});
export type ListenLaunch = z.output<typeof ListenLaunchSchema>;

/** A listener ready to start: its URL parsed and checked. */
export interface ListenerPlan extends ListenerConfig {
  secure: boolean;
  /** The host to bind, without brackets. */
  host: string;
  port: number;
}

/**
 * The listeners to start: the config's, then those of the command line (a URL the config
 * also lists takes the config's settings). The flags' TLS files and token variable apply to
 * the command line's URLs; `--token-env` to every listener.
 */
export function planListeners(
  configured: z.output<typeof ListenConfigSchema>,
  launch: ListenLaunch | undefined,
  projectDir: string,
): ListenerPlan[] {
  const entries: ListenerConfig[] = configured
    .map((e) => (typeof e === 'string' ? ListenerSchema.parse({ url: e }) : e))
    .map((e) => ({
      ...e,
      tlsCert: e.tlsCert && path.resolve(projectDir, e.tlsCert),
      tlsKey: e.tlsKey && path.resolve(projectDir, e.tlsKey),
    }));
  for (const url of launch?.urls ?? []) {
    if (entries.some((e) => sameUrl(e.url, url))) continue;
    entries.push(ListenerSchema.parse({ url, tlsCert: launch?.tlsCert, tlsKey: launch?.tlsKey }));
  }
  const plans = entries.map((e) => plan(launch?.tokenEnv ? { ...e, tokenEnv: launch.tokenEnv } : e));
  const seen = new Set<string>();
  for (const p of plans) {
    const key = `${p.host}:${p.port}`;
    if (p.port !== 0 && seen.has(key)) throw listenError(p.url, `${key} is listed twice`);
    seen.add(key);
  }
  return plans;
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

export function listenError(url: string, cause: string): YoiError {
  return new YoiError('YOI_ERR_LISTEN', `cannot listen on ${url}: ${cause}`);
}

function plan(entry: ListenerConfig): ListenerPlan {
  let url: URL;
  try {
    url = new URL(entry.url);
  } catch {
    throw listenError(entry.url, 'not a URL (expected ws://HOST:PORT or wss://HOST:PORT)');
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    throw listenError(entry.url, `unsupported scheme ${url.protocol} (expected ws:// or wss://)`);
  // Spelled out: `new URL` drops a scheme's default port, and a path would be ignored.
  const explicit = /^wss?:\/\/(\[[^\]]*\]|[^/:@?#]*):(\d{1,5})\/?$/i.exec(entry.url.trim());
  if (!explicit)
    throw listenError(
      entry.url,
      'expected ws://HOST:PORT or wss://HOST:PORT (no path, query or credentials; port 0 picks a free one)',
    );
  const secure = url.protocol === 'wss:';
  if (secure && (!entry.tlsCert || !entry.tlsKey))
    throw listenError(
      entry.url,
      'wss:// needs a certificate and a key (--tls-cert FILE --tls-key FILE, or tlsCert/tlsKey in the config)',
    );
  if (!secure && (entry.tlsCert || entry.tlsKey))
    throw listenError(entry.url, 'a certificate is given for a ws:// listener: use wss:// for TLS');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!isLoopback(host) && !entry.allowRemote) {
    throw listenError(
      entry.url,
      `${host} is not a loopback address; to listen beyond this machine set allowRemote: true on this listener in the config (listen: [{ url: '${entry.url}', allowRemote: true }]), preferably with wss://`,
    );
  }
  return { ...entry, secure, host, port: Number(explicit[2]) };
}

/** Loopback hosts: `localhost`, 127.0.0.0/8, `::1` (also as an IPv4-mapped address). */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return /^127(\.\d{1,3}){3}$/.test(v4);
}
