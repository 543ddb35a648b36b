import fs from 'node:fs';
import type { NatsConnection } from '@nats-io/transport-node';
import type { NatsSettings } from './ClusterConfigSchema.js';
import { YoiError } from '../../core/api.js';

/** Reconnect backoff: 250 ms doubling to 5 s, with jitter; forever (a NATS restart must not end a pod's cluster mode). */
const BACKOFF_MS = [250, 500, 1000, 2000, 5000];

/** Largest message yoi publishes or accepts (reports, placement requests). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Connects to the cluster's NATS servers (the creds file, when set, authenticates). The
 * connection reconnects by itself with a bounded backoff; a first connection that fails
 * rejects with one line naming the servers.
 */
export async function connectNats(
  settings: NatsSettings,
  name: string,
  { timeoutMs = 5000 } = {},
): Promise<NatsConnection> {
  const { connect, credsAuthenticator } = await import('@nats-io/transport-node');
  const servers = Array.isArray(settings.servers) ? settings.servers : [settings.servers];
  let attempt = 0;
  try {
    const nc = await connect({
      servers,
      name,
      timeout: timeoutMs,
      maxReconnectAttempts: -1,
      reconnectDelayHandler: () =>
        BACKOFF_MS[Math.min(attempt++, BACKOFF_MS.length - 1)] + Math.floor(Math.random() * 100),
      ...(settings.credsFile ? { authenticator: credsAuthenticator(fs.readFileSync(settings.credsFile)) } : {}),
    });
    void (async () => {
      for await (const status of nc.status()) if (status.type === 'reconnect') attempt = 0;
    })().catch(() => undefined);
    return nc;
  } catch (e) {
    throw new YoiError('YOI_ERR_CLUSTER', `cannot reach NATS at ${servers.join(', ')}: ${(e as Error).message}`);
  }
}
