import { afterAll, beforeAll, expect, it } from '@jest/globals';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ClusterConfigSchema } from '../../../plugins/cluster/ClusterConfigSchema.js';
import { YoiHost } from '../../../plugins/cluster/host/YoiHost.js';
import { RemotePodsService } from '../../../plugins/podtree/shared/RemotePods.js';
import { natsSuite, startNatsServer, type NatsServer } from '../../support/natsServer.js';
import { runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

/**
 * `yoi host` answers the commands a remote parent sends its pods over a real nats-server. A
 * reply over the server's max_payload (1 MB by default) made publishing throw inside the reply
 * callback: the rejection was unhandled and ended `yoi host` (jest fails a test in which one goes
 * unhandled), and the parent only timed out.
 */
const suite = natsSuite('the yoi host reply tests');

suite('yoi host command replies', () => {
  let nats: NatsServer;
  const pods: TestPod[] = [];
  let host: YoiHost | undefined;

  beforeAll(async () => {
    nats = await startNatsServer();
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
    for (const p of pods) await p.stop();
    await nats?.dispose();
  }, 60_000);

  it('answers a reply over max_payload with an error naming the sizes, and keeps serving', async () => {
    const prefix = `t${process.pid}-`;
    const secret = crypto.randomBytes(32).toString('hex');
    // The placed pod, with a history over 1 MB, in the host's runtime directory.
    const kid = await startTestPod({ name: 'kid' });
    pods.push(kid);
    const client = await kid.connect();
    const ended = runEnded(client, 60_000);
    await client.request({ method: 'run', params: { input: [text('x'.repeat(1_200_000))] } });
    expect((await ended).event).toBe('run_end');
    await client.close();
    const env = { ...process.env, YOI_RUNTIME_DIR: kid.runtimeDir };
    fs.writeFileSync(
      path.join(kid.runtimeDir, '.host-placements.json'),
      JSON.stringify({ kid: { parent: 'par', secret } }),
      { mode: 0o600 },
    );
    const log: string[] = [];
    host = new YoiHost({
      name: 'h1',
      config: ClusterConfigSchema.parse({ nats: { servers: nats.url, prefix } })!,
      projectDir: kid.dir,
      configPath: null,
      env,
      log: (line) => log.push(line),
    });
    await host.start();

    // The parent, a real pod in cluster mode, sends its commands through its ClusterNode.
    const par = await startTestPod({ name: 'par', config: { cluster: { nats: { servers: nats.url, prefix } } } });
    pods.push(par);
    const remote = par.pod.host.services.get(RemotePodsService);
    const command = (method: string) =>
      remote.command({ host: 'h1', pod: 'kid', parent: 'par', secret, method: { method } });

    await expect(command('get_history')).rejects.toThrow(
      /^internal: host h1: the reply is \d+ bytes, more than the NATS server's max_payload \(1048576 bytes\)$/,
    );
    // The host is still there: the next command reaches the pod, whose refusal comes back.
    await expect(command('pause')).rejects.toThrow('not_running: Pod is not running');
  }, 120_000);
});
