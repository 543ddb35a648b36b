import net from 'node:net';
import { YoiError } from '../errors/YoiError.js';

/** Connects to a Unix socket within `timeoutMs`; failures are one readable line. */
export function openSocket(socketPath: string, timeoutMs: number): Promise<net.Socket> {
  return new Promise<net.Socket>((resolve, reject) => {
    const s = net.connect(socketPath);
    const timer = setTimeout(() => {
      s.destroy();
      reject(new YoiError('YOI_ERR_TIMEOUT', `no answer from ${socketPath} within ${timeoutMs} ms`));
    }, timeoutMs);
    s.once('connect', () => {
      clearTimeout(timer);
      resolve(s);
    });
    s.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const why = e.code === 'ENOENT' || e.code === 'ECONNREFUSED' ? 'no pod is listening there' : e.message;
      reject(new YoiError('YOI_ERR_CONNECTION', `cannot reach a pod at ${socketPath}: ${why}`, { cause: e }));
    });
  });
}
