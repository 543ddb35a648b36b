import { setTimeout as sleep } from 'node:timers/promises';
import type { NatsConnection } from '@nats-io/transport-node';
import type { JsMsg } from '@nats-io/jetstream';
import type { AppliedReports } from './AppliedReports.js';
import type { ClusterNames } from './clusterNames.js';
import { ensureReportConsumer, ensureReportStream } from './ReportStream.js';
import { POD_HEADER, SIGNATURE_HEADER, verifyReport } from './reportSignature.js';
import { decodeMethodLine, type PodEvent, podEventSource } from '../../core/api.js';
import { RefusalLog } from '../ws/RefusalLog.js';

/** What applying one report came to. */
export type ApplyOutcome = { ok: true } | { ok: false; retry: boolean; reason: string };

export interface ReportConsumerOptions {
  nc: NatsConnection;
  names: ClusterNames;
  /** This pod: it reads the reports published to it. */
  podName: string;
  /** The secret of a pod this one manages (recorded, or starting). */
  secretOf(child: string): string | undefined;
  applied: AppliedReports;
  /**
   * Runs the report's side effects exactly as a report over the socket would (checks included),
   * under its own request id: the pod records it with the report, so a redelivery after the pod
   * was killed before this consumer wrote the id is acknowledged there, not applied again.
   */
  apply(child: string, secret: string, event: PodEvent, requestId: string): Promise<ApplyOutcome>;
  alert(message: string): void;
}

/**
 * The parent side of reports through JetStream: reads this pod's durable consumer one report at
 * a time; a report is verified (its HMAC under the child's secret), applied once (ids already
 * applied — also before a restart, from the session log — are only acknowledged), and
 * acknowledged after its side effects ran. A report that cannot be applied now is delivered
 * again later (at-least-once); one that is refused is terminated with an alert (bounded: RefusalLog).
 */
export class ReportConsumer {
  private stopped = false;
  private messages?: { stop(): void; close(): Promise<void | Error> };
  private loop?: Promise<void>;
  /** Whoever can publish to the stream can send anything: its refusals are alerts, bounded. */
  private readonly refusals: RefusalLog;

  constructor(private readonly o: ReportConsumerOptions) {
    this.refusals = new RefusalLog((line) => o.alert(line));
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.messages?.stop();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { jetstream } = await import('@nats-io/jetstream');
    let attempt = 0;
    while (!this.stopped) {
      try {
        const jsm = await ensureReportStream(this.o.nc, this.o.names);
        await ensureReportConsumer(jsm, this.o.names, this.o.podName);
        const consumer = await jetstream(this.o.nc).consumers.get(
          this.o.names.reportsStream,
          this.o.names.reportsConsumer(this.o.podName),
        );
        const messages = await consumer.consume({ max_messages: 1 });
        this.messages = messages;
        if (this.stopped) messages.stop();
        attempt = 0;
        for await (const m of messages) {
          await this.handle(m);
          if (this.stopped) break;
        }
      } catch {
        // NATS is away or the consumer went missing: try again, backing off.
      }
      if (!this.stopped) await sleep(Math.min(5000, 250 * 2 ** attempt++), undefined, { ref: false });
    }
  }

  private async handle(m: JsMsg): Promise<void> {
    const claimed = m.headers?.get(POD_HEADER) ?? '';
    const decoded = decodeMethodLine(m.string());
    if (!decoded.ok || decoded.value.method !== 'pod_event' || decoded.value.request_id === undefined) {
      this.refuse(m, `a report from \`${claimed}\` that is not a pod_event with a request id`);
      return;
    }
    const { params: event, request_id: id } = decoded.value;
    const child = podEventSource(event);
    const secret = this.o.secretOf(child);
    if (child !== claimed || secret === undefined || !verifyReport(secret, m.data, m.headers?.get(SIGNATURE_HEADER))) {
      this.refuse(m, `a report claiming to be from \`${child}\` that does not carry its signature`);
      return;
    }
    const key = `${child}/${id}`;
    if (!this.o.applied.has(key)) {
      const outcome = await this.o.apply(child, secret, event, id);
      if (!outcome.ok) {
        if (outcome.retry) m.nak(1000);
        else this.refuse(m, `the ${event.kind} report from \`${child}\` was refused: ${outcome.reason}`);
        return;
      }
      this.o.applied.add(key);
      // The session log writes at the end of this event-loop turn: acknowledge after that.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await m.ackAck().catch(() => undefined); // lost: it comes again and is only acknowledged
  }

  private refuse(m: JsMsg, why: string): void {
    m.term(); // no reason: nats-server 2.9 does not read `+TERM <reason>` and would deliver it again
    this.refusals.refused(why);
  }
}
