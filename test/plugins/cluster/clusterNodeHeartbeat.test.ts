import { afterEach, it } from '@jest/globals';
import fs from 'node:fs';
import type { PodClient } from '../../../client/PodClient.js';
import type { Event } from '../../../core/protocol/index.js';
import { RemotePodsService } from '../../../plugins/podtree/shared/RemotePods.js';
import { natsSuite, startNatsServer, type NatsServer } from '../../support/natsServer.js';
import { recorder, startTestPod, treeOf, type TestPod } from '../../support/startTestPod.js';
import { waitFor } from '../../support/waitFor.js';

/**
 * A pod in cluster mode forgets, at its heartbeat, the remote children whose registration
 * expired. Forgetting takes scope.lock; when that fails (here a scope.lock that is not JSON),
 * the rejection reached the heartbeat's `void` (the interval, or the first heartbeat at connect)
 * and ended the pod. It must say so and keep going, and a later heartbeat must work again
 * (jest fails a test in which a promise rejection goes unhandled).
 */
const suite = natsSuite('the cluster heartbeat tests');

suite('cluster heartbeat with a broken scope.lock', () => {
  const servers: NatsServer[] = [];
  const pods: TestPod[] = [];
  const clients: PodClient[] = [];
  let n = 0;

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const p of pods.splice(0)) await p.stop();
    for (const s of servers.splice(0)) await s.dispose();
  }, 60_000);

  async function rootPod(nats: NatsServer) {
    const prefix = `t${++n}${process.pid}-`;
    const cluster = { nats: { servers: nats.url, prefix }, ttlMs: 1000, heartbeatMs: 200 };
    const tp = await startTestPod({ name: 'root', config: { cluster } });
    pods.push(tp);
    const client = await tp.connect();
    clients.push(client);
    const events = recorder(client);
    const tree = treeOf(tp.pod);
    const lock = tree.lockFile.file;
    const good = fs.readFileSync(lock, 'utf8');
    return {
      tp,
      client,
      /** Waits for an alert matching `pattern`. */
      alert: (pattern: RegExp) =>
        waitFor(
          `an alert matching ${pattern}`,
          () => {
            const said = events.flatMap((e: Event) => (e.event === 'alert' ? [e.data.message] : []));
            if (said.some((m) => pattern.test(m))) return true;
            throw new Error(`the alerts were ${JSON.stringify(said)}`);
          },
          20_000,
        ),
      breakLock: () => fs.writeFileSync(lock, '{ not json'),
      repairLock: () => fs.writeFileSync(lock, good),
      /** A child placed on another host whose registration is long gone: the next heartbeat forgets it. */
      remoteChild: (name: string) =>
        tree.registry.add({
          pod_name: name,
          socket_path: `/elsewhere/${name}/sock`,
          scope_delegated: [],
          callback_address: tp.socket,
          host: 'elsewhere',
          spawned_at: 0,
        }),
    };
  }

  const failed = (name: string) =>
    new RegExp(
      `^yoi:cluster: cannot forget pod ${name} \\(the next heartbeat checks again\\): the scope lock .* cannot be used: not valid JSON`,
    );
  const gone = (name: string) => new RegExp(`^yoi:cluster: pod ${name} on host elsewhere is gone`);

  it('a heartbeat that cannot forget a remote child says so, and the next ones work', async () => {
    const nats = await startNatsServer();
    servers.push(nats);
    const root = await rootPod(nats);
    const remote = root.tp.pod.host.services.get(RemotePodsService);
    // Registered: the first heartbeat (at connect) is done, the next ones come from the interval.
    await waitFor('the root registered in the cluster', () => remote.isRegistered('root'));
    root.breakLock();
    root.remoteChild('far1');
    await root.alert(failed('far1'));
    // The pod still serves its clients, and once scope.lock is fine again a heartbeat forgets the next one.
    await root.client.request({ method: 'get_history' });
    root.repairLock();
    root.remoteChild('far2');
    await root.alert(gone('far2'));
  }, 60_000);

  it('the first heartbeat, when NATS comes back, cannot forget a remote child: said, and the pod joins the cluster', async () => {
    const nats = await startNatsServer();
    servers.push(nats);
    await nats.stop();
    const root = await rootPod(nats); // started without the cluster: it keeps trying
    root.breakLock();
    root.remoteChild('far1');
    await nats.start();
    await root.alert(failed('far1'));
    await root.alert(/^yoi:cluster: connected to NATS at /);
    root.repairLock();
    root.remoteChild('far2');
    await root.alert(gone('far2'));
  }, 60_000);
});
