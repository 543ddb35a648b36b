import { YoiError } from '../core/errors/YoiError.js';
import type { WebSocketTransport } from './WebSocketTransport.js';

/** The largest frame a client takes from a pod (a long history is one line). */
const CLIENT_MAX_PAYLOAD = 512 * 1024 * 1024;

export interface WebSocketOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** CA certificate(s) to trust for `wss://` (besides the system's and NODE_EXTRA_CA_CERTS). */
  ca?: string | Buffer;
  timeoutMs: number;
  /** The largest frame taken (default 512 MiB). */
  maxPayload?: number;
}

/**
 * Opens a pod's `ws://` / `wss://` listener with its bearer token; a refusal (401, 403, 429),
 * an unreachable address or a certificate problem is one readable line.
 */
export async function openWebSocket(url: string, opts: WebSocketOptions): Promise<WebSocketTransport> {
  if (!/^wss?:\/\//i.test(url))
    throw new YoiError('YOI_ERR_CONNECTION', `cannot reach a pod at ${url}: not a ws:// or wss:// URL`);
  if (!opts.token)
    throw new YoiError(
      'YOI_ERR_TOKEN',
      `no usable token for ${url}: set YOI_TOKEN, or name the variable holding it with --token-env VAR`,
    );
  // Loaded when a URL is used: commands on the Unix socket never load `ws`.
  const [{ WebSocket }, { WebSocketTransport }] = await Promise.all([import('ws'), import('./WebSocketTransport.js')]);
  return new Promise((resolve, reject) => {
    let ws: InstanceType<typeof WebSocket>;
    try {
      ws = new WebSocket(url, {
        headers: { authorization: `Bearer ${opts.token}` },
        handshakeTimeout: opts.timeoutMs,
        maxPayload: opts.maxPayload ?? CLIENT_MAX_PAYLOAD,
        perMessageDeflate: false,
        followRedirects: false,
        ...(opts.ca !== undefined ? { ca: opts.ca } : {}),
      });
    } catch (e) {
      reject(new YoiError('YOI_ERR_CONNECTION', `cannot reach a pod at ${url}: ${(e as Error).message}`));
      return;
    }
    ws.on('error', (e: NodeJS.ErrnoException) => reject(connectionError(url, e)));
    ws.once('unexpected-response', (req, res) => {
      const status = res.statusCode ?? 0;
      const retry = res.headers['retry-after'];
      const why =
        status === 401
          ? 'no valid bearer token (HTTP 401); check YOI_TOKEN or --token-env'
          : status === 403
            ? 'this client sent a browser Origin the pod does not allow (HTTP 403)'
            : status === 429
              ? `too many failed attempts from this address (HTTP 429); try again in ${typeof retry === 'string' ? retry : 'a few'} s`
              : `HTTP ${status} ${res.statusMessage ?? ''}`.trim();
      reject(
        new YoiError(
          status === 401 || status === 403 || status === 429 ? 'YOI_ERR_AUTH' : 'YOI_ERR_CONNECTION',
          `the pod at ${url} refused the connection: ${why}`,
        ),
      );
      req.destroy();
      res.destroy();
    });
    ws.once('open', () => resolve(new WebSocketTransport(ws)));
  });
}

function connectionError(url: string, e: NodeJS.ErrnoException): YoiError {
  const code = e.code ?? '';
  if (code === 'ECONNREFUSED')
    return new YoiError(
      'YOI_ERR_CONNECTION',
      `cannot reach a pod at ${url}: nothing listens there (connection refused)`,
    );
  if (code.includes('CERT') || code.includes('SELF_SIGNED') || /certificate/i.test(e.message)) {
    return new YoiError(
      'YOI_ERR_CONNECTION',
      `cannot reach a pod at ${url}: its TLS certificate is not trusted (${e.message}); trust its CA with NODE_EXTRA_CA_CERTS=<ca.pem>`,
    );
  }
  if (/timed out|timeout/i.test(e.message))
    return new YoiError('YOI_ERR_TIMEOUT', `no answer from ${url} within the connect timeout`);
  return new YoiError('YOI_ERR_CONNECTION', `cannot reach a pod at ${url}: ${e.message}`);
}
