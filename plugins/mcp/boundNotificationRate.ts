import { performance } from 'node:perf_hooks';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * Most notifications a server may send in one second. Far above what servers send (progress,
 * logs, list changes); a server flooding them as fast as it can sent ~26,000 a second, and the
 * pod spent a core parsing them.
 */
export const MAX_NOTIFICATIONS_PER_SECOND = 2000;

/** The error a transport reports once its server sent more than that. */
export const NOTIFICATION_FLOOD_ERROR = /the server sent more than [\d,]+ notifications in a second/;

/**
 * Counts the notifications a transport receives, in windows of one second; past the bound its
 * `onerror` hears it once, so the connection is closed (and the server restarted, in the end
 * given up) like one that crashed. Set before the client connects: the SDK calls the
 * transport's own `onmessage` before its handling of each message.
 */
export function boundNotificationRate(transport: Transport, max = MAX_NOTIFICATIONS_PER_SECOND): void {
  let windowStart = 0;
  let count = 0;
  let reported = false;
  transport.onmessage = (message) => {
    if (reported || !('method' in message) || 'id' in message) return;
    const now = performance.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      count = 0;
    }
    if (++count <= max) return;
    reported = true;
    transport.onerror?.(new Error(`the server sent more than ${max.toLocaleString('en')} notifications in a second`));
  };
}
