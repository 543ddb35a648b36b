import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { AppliedReports } from '../../../plugins/cluster/AppliedReports.js';
import { clusterNames } from '../../../plugins/cluster/clusterNames.js';
import { ReportConsumer } from '../../../plugins/cluster/ReportConsumer.js';
import { ensureReportStream } from '../../../plugins/cluster/ReportStream.js';
import { POD_HEADER, SIGNATURE_HEADER, signReport } from '../../../plugins/cluster/reportSignature.js';
import { natsSuite, startNatsServer, type NatsServer } from '../../support/natsServer.js';
import { waitUntil } from '../../support/waitUntil.js';

/**
 * Whoever can publish to the reports stream can send a parent anything. Each report it refused
 * (not a pod_event, or not signed with the child's secret) was one alert to every client of the
 * pod: a flood of them pushed out of its replay buffer what clients were there to see. Refusals
 * now go through the bounded refusal log, as `yoi host`'s do (20 at once, one more every 3 s,
 * the rest counted on the next); a signed report still goes through.
 */
const suite = natsSuite('the report refusal tests');

const BURST = 20;
const REFILL_MS = 3000;
suite('reports a parent refuses', () => {
  let nats: NatsServer;
  let nc: NatsConnection | undefined;
  let consumer: ReportConsumer | undefined;

  beforeAll(async () => {
    nats = await startNatsServer();
  }, 60_000);
  afterAll(async () => {
    await consumer?.stop();
    await nc?.close();
    await nats?.dispose();
  }, 60_000);

  it('a flood of refused reports makes a bounded number of alerts, and a signed one is applied', async () => {
    const names = clusterNames(`r${process.pid}-`);
    const { connect, headers } = await import('@nats-io/transport-node');
    const { jetstream } = await import('@nats-io/jetstream');
    nc = await connect({ servers: nats.url });
    const alerts: string[] = [];
    const applied: string[] = [];
    const secret = 'kid-secret';
    const log = { restored: () => [], append: () => undefined } as unknown as ConstructorParameters<
      typeof AppliedReports
    >[0];
    consumer = new ReportConsumer({
      nc,
      names,
      podName: 'root',
      secretOf: (child) => (child === 'kid' ? secret : undefined),
      applied: new AppliedReports(log, 'test'),
      apply: async (_child, _secret, event) => {
        applied.push(event.kind);
        return { ok: true };
      },
      alert: (message) => alerts.push(message),
    });
    consumer.start();
    await ensureReportStream(nc, names); // made before anyone publishes to it
    const js = jetstream(nc);
    const publish = async (payload: string, sign: boolean) => {
      const h = headers();
      h.set(POD_HEADER, 'kid');
      if (sign) h.set(SIGNATURE_HEADER, signReport(secret, Buffer.from(payload)));
      await js.publish(names.reports('root'), payload, { headers: h });
    };
    const report = (id: string) =>
      JSON.stringify({ method: 'pod_event', request_id: id, params: { kind: 'turn_ended', pod_name: 'kid' } });
    const started = Date.now();
    for (let i = 0; i < 150; i++) {
      await publish('not a report', false);
      await publish(report(`forged-${i}`), false); // unsigned
    }
    await publish(report('real'), true);
    await waitUntil(() => applied.length === 1, 'the signed report', 60_000);
    const elapsed = Date.now() - started;
    expect(applied).toEqual(['turn_ended']);
    expect(alerts.length).toBeGreaterThanOrEqual(BURST);
    expect(alerts.length).toBeLessThanOrEqual(BURST + Math.ceil(elapsed / REFILL_MS));
    expect(alerts[0]).toMatch(/^a report from `kid` that is not a pod_event with a request id$/);
  }, 90_000);
});
