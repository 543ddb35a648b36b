import { timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import type { NatsConnection } from '@nats-io/transport-node';
import { MAX_MESSAGE_BYTES } from '../connectNats.js';
import type { ClusterNames } from '../clusterNames.js';
import { POD_HEADER, SIGNATURE_HEADER, signReport } from '../reportSignature.js';
import { podClientName } from '../../podtree/shared/podClientName.js';
import { decodeMethodLine, encodeMethod, LineReader, podEventSource, validatePodName } from '../../../core/api.js';

/** A pod this host placed: who it reports to, and the secret it presents. */
export interface Placement {
  readonly parent: string;
  readonly secret: string;
}

/** Connections served at once; more are refused (the host's own pods are few). */
const MAX_CONNECTIONS = 256;
/** How long one publish may wait for JetStream's acknowledgement. */
const PUBLISH_TIMEOUT_MS = 10_000;

/**
 * The host's side of remote reports: the pods it placed report to this Unix socket exactly as
 * they would to a local parent (v2 `hello` with their secret, `pod_event` with a request id),
 * and each report is published to the parent's subject of the reports stream — `Nats-Msg-Id` =
 * its request id, signed with the child's secret — and acknowledged to the child only once
 * JetStream stored it. A failed publish answers `internal`, so the child's outbox retries (with
 * the same id: the server drops a copy it already has); a pod that is not the one it claims
 * is refused.
 */
export class ReportRelay {
  private server?: net.Server;
  private connections = 0;

  constructor(
    private readonly socketPath: string,
    private readonly nc: NatsConnection,
    private readonly names: ClusterNames,
    private readonly placements: Map<string, Placement>,
  ) {}

  async listen(): Promise<void> {
    fs.rmSync(this.socketPath, { force: true });
    const server = net.createServer((socket) => this.serve(socket));
    server.maxConnections = MAX_CONNECTIONS;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.socketPath, () => resolve());
    });
    fs.chmodSync(this.socketPath, 0o600);
    this.server = server;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    fs.rmSync(this.socketPath, { force: true });
  }

  private serve(socket: net.Socket): void {
    this.connections++;
    let client: { name?: string; auth?: string } | undefined;
    const write = (value: unknown) => socket.writable && socket.write(`${JSON.stringify(value)}\n`);
    const reject = (requestId: string | undefined, code: string, message: string) =>
      write({ event: 'error', ...(requestId ? { request_id: requestId } : {}), data: { code, message } });
    // One report at a time per connection, in order (the child sends one at a time anyway).
    let chain: Promise<unknown> = Promise.resolve();
    const reader = new LineReader({
      maxLineBytes: MAX_MESSAGE_BYTES,
      onError: (e) => reject(undefined, 'invalid_request', e.message),
      onLine: (line) => {
        chain = chain.then(async () => {
          const decoded = decodeMethodLine(line);
          if (!decoded.ok) return reject(undefined, 'invalid_request', decoded.error);
          const m = decoded.value;
          if (m.method === 'hello') {
            client = { name: m.params.client, auth: m.params.auth };
            write({
              event: 'welcome',
              ...(m.request_id ? { request_id: m.request_id } : {}),
              data: {
                protocol_version: 2,
                pod_name: 'yoi-host',
                session_id: '',
                status: 'idle',
                segment_kinds: [],
                pod_event_kinds: ['turn_ended', 'errored', 'shut_down', 'scope_sub_delegated'],
              },
            });
            return;
          }
          if (m.method !== 'pod_event' || m.request_id === undefined)
            return reject(
              m.request_id,
              'invalid_request',
              'this socket only relays reports (pod_event with a request_id)',
            );
          const source = podEventSource(m.params);
          const placement = this.placements.get(source);
          if (
            !placement ||
            client?.name !== podClientName(source) ||
            !client.auth ||
            !same(placement.secret, client.auth)
          ) {
            const who = validatePodName(source) ? 'the pod its `pod_name` names' : `pod \`${source}\``; // a bad name is never echoed
            return reject(
              m.request_id,
              'invalid_request',
              `pod_event refused: the sender did not authenticate as ${who}`,
            );
          }
          const payload = Buffer.from(encodeMethod(m), 'utf8');
          try {
            await this.publish(placement, source, m.request_id, payload);
            // Its last report: nothing more to relay for it (a retry of it is refused, and dropped).
            if (m.params.kind === 'shut_down') this.placements.delete(source);
            write({ event: 'ack', request_id: m.request_id, data: { method: 'pod_event' } });
          } catch (e) {
            reject(m.request_id, 'internal', `the report could not be stored in the cluster: ${(e as Error).message}`);
          }
        });
      },
    });
    socket.on('data', (chunk: Buffer) => reader.push(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.connections--);
  }

  private async publish(placement: Placement, child: string, requestId: string, payload: Buffer): Promise<void> {
    const [{ jetstream }, { headers }] = await Promise.all([
      import('@nats-io/jetstream'),
      import('@nats-io/transport-node'),
    ]);
    const h = headers();
    h.set(POD_HEADER, child);
    h.set(SIGNATURE_HEADER, signReport(placement.secret, payload));
    await jetstream(this.nc, { timeout: PUBLISH_TIMEOUT_MS }).publish(this.names.reports(placement.parent), payload, {
      msgID: requestId,
      headers: h,
    });
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
