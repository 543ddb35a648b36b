import type { NatsConnection } from '@nats-io/transport-node';
import { withTimeout } from './withTimeout.js';

/** How long a stop lets NATS take what is still buffered before it closes the connection. */
export const DRAIN_DEADLINE_MS = 2000;

/**
 * Drains a connection at a stop, closing it once `deadlineMs` have passed. A drain flushes
 * through the server; with the server gone the connection reconnects forever and the drain
 * never ends, and its reconnect timers kept a stopped pod's process (and `yoi host` after
 * SIGTERM) alive.
 */
export async function closeNats(nc: NatsConnection | undefined, deadlineMs = DRAIN_DEADLINE_MS): Promise<void> {
  if (!nc || nc.isClosed()) return;
  const drained = await withTimeout(nc.drain(), deadlineMs).then(
    () => true,
    () => false,
  );
  if (!drained && !nc.isClosed()) await nc.close().catch(() => undefined);
}
