import net from 'node:net';
import { YoiError } from '../core/errors/YoiError.js';

/** First wait before connecting again to a pod whose listen backlog is full (EAGAIN); doubles up to 100 ms. */
const BUSY_RETRY_MS = 5;

/**
 * Connects to a Unix socket within `timeoutMs`; failures are one readable line. A pod too busy
 * to accept (its backlog full: the kernel answers EAGAIN at once, where TCP would wait) is tried
 * again until the timeout, as a TCP client would be.
 */
export function openSocket(socketPath: string, timeoutMs: number): Promise<net.Socket> {
  const deadline = Date.now() + timeoutMs;
  let wait = BUSY_RETRY_MS;
  return new Promise<net.Socket>((resolve, reject) => {
    const timeout = () => new YoiError('YOI_ERR_TIMEOUT', `no answer from ${socketPath} within ${timeoutMs} ms`);
    const attempt = () => {
      const s = net.connect(socketPath);
      const timer = setTimeout(
        () => {
          s.destroy();
          reject(timeout());
        },
        Math.max(0, deadline - Date.now()),
      );
      s.once('connect', () => {
        clearTimeout(timer);
        resolve(s);
      });
      s.once('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (e.code === 'EAGAIN') {
          if (Date.now() + wait >= deadline) return reject(timeout());
          setTimeout(attempt, wait);
          wait = Math.min(wait * 2, 100);
          return;
        }
        const why = e.code === 'ENOENT' || e.code === 'ECONNREFUSED' ? 'no pod is listening there' : e.message;
        reject(new YoiError('YOI_ERR_CONNECTION', `cannot reach a pod at ${socketPath}: ${why}`, { cause: e }));
      });
    };
    attempt();
  });
}
