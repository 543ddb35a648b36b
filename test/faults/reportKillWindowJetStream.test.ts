import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import type { Event } from '../../core/protocol/index.js';
import { clusterNames } from '../../plugins/cluster/clusterNames.js';
import { signReport } from '../../plugins/cluster/reportSignature.js';
import { doubledRunEnds } from '../support/killCheck.js';
import { liveHistory } from '../support/logReplay.js';
import { natsSuite, startNatsServer, type NatsServer } from '../support/natsServer.js';
import { eventually, killPointConfig, notesAbout } from '../support/reportKillPoint.js';
import { historyItems, startRootPod } from '../support/rootPodProcess.js';
import { makeProject } from '../support/startTestPod.js';

/**
 * The kill window of a report on the JetStream path (a real nats-server): a remote child's
 * report, published as its host's relay does (signed, `Nats-Msg-Id` = its request id), is read
 * by the parent's durable consumer and applied through the parent's socket. The parent (a real
 * `yoi pod start`) is SIGKILLed (A) right after the report's side effects, before anything
 * recorded it, and (B) right after it was recorded, before the consumer acknowledged it to
 * JetStream. JetStream delivers both again after the restart (`--resume`, once its ack wait is
 * over): each reaches the model once, its side effect (keyed by the request id) happened once.
 */
const suite = natsSuite('the JetStream kill-window test');

const SECRET = 'kid-report-secret-0123456789';
const PREFIX = 'kw-';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

suite('the kill window of a report (JetStream path)', () => {
  let nats: NatsServer;
  beforeAll(async () => {
    nats = await startNatsServer();
  }, 60_000);
  afterAll(async () => {
    await nats?.dispose();
  });

  it('a parent killed after the side effects, or after the record, applies each redelivered report exactly once', async () => {
    const cluster = { cluster: { nats: { servers: nats.url, prefix: PREFIX }, host: 'host-b', ttlMs: 600_000 } };
    const dir = fs.realpathSync(makeProject({ 'yoi.config.ts': killPointConfig(cluster) }));
    const run = path.join(dir, 'run');
    const env = { YOI_RUNTIME_DIR: run };
    // The parent's child `kid` runs on host-a: recorded with its host and secret, as SpawnPod does.
    fs.mkdirSync(path.join(run, 'root'), { recursive: true, mode: 0o700 });
    fs.chmodSync(run, 0o700);
    fs.writeFileSync(
      path.join(run, 'root', 'spawned_pods.json'),
      JSON.stringify([
        {
          pod_name: 'kid',
          socket_path: '/elsewhere/kid/sock',
          scope_delegated: [],
          callback_address: path.join(run, 'root', 'sock'),
          secret: SECRET,
          host: 'host-a',
          spawned_at: Date.now(),
        },
      ]),
      { mode: 0o600 },
    );

    const { connect, headers } = await import('@nats-io/transport-node');
    const { jetstream, jetstreamManager } = await import('@nats-io/jetstream');
    const nc = await connect({ servers: nats.url });
    cleanups.push(() => nc.close());
    const names = clusterNames(PREFIX);
    const publish = (id: string, message: string) => {
      const payload = Buffer.from(
        JSON.stringify({ method: 'pod_event', request_id: id, params: { kind: 'errored', pod_name: 'kid', message } }),
      );
      const h = headers();
      h.set('Yoi-Pod', 'kid');
      h.set('Yoi-Sig', signReport(SECRET, payload));
      return jetstream(nc).publish(names.reports('root'), payload, { msgID: id, headers: h });
    };

    const start = (args: string[]) => startRootPod(dir, env, args, cleanups);
    const effects = () =>
      fs.existsSync(path.join(dir, 'effects.log'))
        ? fs.readFileSync(path.join(dir, 'effects.log'), 'utf8').split('\n').filter(Boolean)
        : [];

    const first = await start([]);
    const ended = first.client.waitFor((e: Event) => e.event === 'run_end', 60_000);
    await first.client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'hello' }] } });
    await ended;
    // The parent's durable consumer exists once it is connected.
    const jsm = await jetstreamManager(nc);
    await eventually("the parent's report consumer", async () =>
      jsm.consumers.info(names.reportsStream, names.reportsConsumer('root')).then(
        () => true,
        () => false,
      ),
    );

    // (A) Killed by the side effect itself: nothing recorded it, JetStream has no ack.
    fs.writeFileSync(path.join(dir, 'kill.armed'), '');
    await publish('kid-a', 'first failure');
    await first.pod.exited;
    expect(effects()).toEqual(['kid-a']);

    // Back up: the report comes again (after the ack wait) and is applied; then (B) a report
    // killed at the broadcast that follows its record, before the consumer acknowledged it.
    const second = await start(['--resume']);
    await eventually(
      'the first report in the history',
      async () => notesAbout(await historyItems(second.client), 'first failure') >= 1,
    );
    const recordedB = second.client.waitFor(
      (e: Event) => e.event === 'notification' && JSON.stringify(e.data).includes('second failure'),
      60_000,
    );
    const pid = second.pod.child.pid!;
    void recordedB.then(
      () => process.kill(pid, 'SIGKILL'),
      () => undefined,
    );
    await publish('kid-b', 'second failure');
    await second.pod.exited;

    const third = await start(['--resume']);
    await eventually(
      'the second report in the history',
      async () => notesAbout(await historyItems(third.client), 'second failure') >= 1,
    );
    // Whatever JetStream still had for this parent is acknowledged: nothing pending for its consumer.
    await eventually('every report acknowledged', async () => {
      const info = await jsm.consumers.info(names.reportsStream, names.reportsConsumer('root'));
      return info.num_pending === 0 && info.num_ack_pending === 0;
    });
    // The state a kill between the pod's record and the consumer's own leaves, made on purpose: a
    // report the pod applied (here through its socket, under its id) that the consumer never saw.
    const kid = await PodClient.connect({
      socketPath: third.pod.socket,
      clientName: 'pod/kid',
      auth: SECRET,
      requestTimeoutMs: 30_000,
    });
    await kid.request(
      { method: 'pod_event', params: { kind: 'errored', pod_name: 'kid', message: 'third failure' } },
      30_000,
      'kid-c',
    );
    await kid.close();
    await publish('kid-c', 'third failure');
    await eventually('the copy through JetStream acknowledged', async () => {
      const info = await jsm.consumers.info(names.reportsStream, names.reportsConsumer('root'));
      return info.num_pending === 0 && info.num_ack_pending === 0 && info.delivered.stream_seq >= 3;
    });
    const checked = third.client.waitFor((e: Event) => e.event === 'run_end', 60_000);
    await third.client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'checkpoint' }] } });
    await checked;

    const live = await liveHistory({ cwd: dir, env }, 'root');
    expect([
      notesAbout(live, 'first failure'),
      notesAbout(live, 'second failure'),
      notesAbout(live, 'third failure'),
    ]).toEqual([1, 1, 1]);
    expect(effects()).toEqual(['kid-a', 'kid-b', 'kid-c']);
    expect(doubledRunEnds(path.join(dir, '.yoi', 'sessions'))).toBe(0);
  }, 300_000);
});
