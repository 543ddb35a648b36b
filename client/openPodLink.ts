import { YoiError } from '../core/errors/YoiError.js';
import { checkOwnSocket } from '../core/pod/trustedPath.js';
import { openSocket } from './openSocket.js';
import { openWebSocket } from './openWebSocket.js';
import type { ClientLink, PodClientOptions } from './PodClientOptions.js';

/** The transport the address names: a WebSocket for `url`, else the Unix socket. */
export async function openPodLink(opts: PodClientOptions): Promise<ClientLink> {
  const timeoutMs = opts.connectTimeoutMs ?? 5000;
  if (opts.url !== undefined)
    return openWebSocket(opts.url, {
      token: opts.token,
      ca: opts.ca,
      timeoutMs,
      // A frame is at least one line: none longer than the client takes (a line ends with its newline).
      ...(opts.maxReplyBytes !== undefined ? { maxPayload: opts.maxReplyBytes + 1 } : {}),
    });
  if (opts.socketPath === undefined)
    throw new YoiError('YOI_ERR_CONNECTION', 'cannot reach a pod: neither a socket path nor a URL was given');
  // Only the user's own socket, in a directory nobody else controls (no SO_PEERCRED in Node).
  if (!checkOwnSocket(opts.socketPath)) {
    const cause = Object.assign(new Error(`ENOENT: no socket at ${opts.socketPath}`), { code: 'ENOENT' });
    throw new YoiError('YOI_ERR_CONNECTION', `cannot reach a pod at ${opts.socketPath}: no pod is listening there`, {
      cause,
    });
  }
  return openSocket(opts.socketPath, timeoutMs);
}
