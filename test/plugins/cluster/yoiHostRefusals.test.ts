import { afterAll, beforeAll, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { ClusterConfigSchema } from '../../../plugins/cluster/ClusterConfigSchema.js';
import { YoiHost } from '../../../plugins/cluster/host/YoiHost.js';
import { natsSuite, startNatsServer, type NatsServer } from '../../support/natsServer.js';
import { makeProject } from '../../support/startTestPod.js';

/**
 * Whoever can publish on a host's placement subject can send it anything. Each malformed
 * placement wrote one "refused a placement" line to `yoi host`'s stderr: 5,026 garbage messages
 * gave 3,409 lines. Refusals now go through the bounded refusal log (20 lines at once, one more
 * every 3 s, the rest counted on the next line written).
 */
const suite = natsSuite('the yoi host refusal tests');

const BURST = 20;
const REFILL_MS = 3000;
const MALFORMED = ['hello', '', 'null', '[]', '{"__proto__":{"ok":true}}', JSON.stringify({ name: 5, parent: [] })];

suite('yoi host refusals', () => {
  let nats: NatsServer;
  let nc: NatsConnection | undefined;
  let host: YoiHost | undefined;
  const runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-host-refusals-'));
  const projectDir = makeProject();

  beforeAll(async () => {
    nats = await startNatsServer();
  }, 60_000);
  afterAll(async () => {
    await nc?.close();
    await host?.stop();
    await nats?.dispose();
    fs.rmSync(runtimeDir, { recursive: true, force: true });
    fs.rmSync(projectDir, { recursive: true, force: true });
  }, 60_000);

  it('logs a bounded number of refused placements, counts the rest, and still answers', async () => {
    const prefix = `t${process.pid}-`;
    const log: string[] = [];
    host = new YoiHost({
      name: 'h1',
      config: ClusterConfigSchema.parse({ nats: { servers: nats.url, prefix } })!,
      projectDir,
      configPath: null,
      env: { ...process.env, YOI_RUNTIME_DIR: runtimeDir },
      log: (line) => log.push(line),
    });
    await host.start();
    const { connect } = await import('@nats-io/transport-node');
    nc = await connect({ servers: nats.url });
    const subject = host.subject;
    const refusals = () => log.filter((l) => l.startsWith('refused a placement: '));
    let sent = 0;
    const sendMalformed = async () => {
      const reply = JSON.parse((await nc!.request(subject, MALFORMED[sent++ % MALFORMED.length])).string());
      expect(reply).toEqual({ ok: false, error: expect.any(String) });
    };

    // One at a time, each answered: the host logs (or counts) a refusal before it answers.
    const started = Date.now();
    for (let i = 0; i < 500; i++) await sendMalformed();
    const elapsed = Date.now() - started;
    expect(refusals().length).toBeGreaterThanOrEqual(BURST);
    expect(refusals().length).toBeLessThanOrEqual(BURST + Math.ceil(elapsed / REFILL_MS));

    // Once the budget refills, the next line says how many were left out: none vanished.
    const before = refusals().length;
    const deadline = Date.now() + 60_000;
    while (refusals().length === before && Date.now() < deadline) await sendMalformed();
    const lines = refusals();
    expect(lines.length).toBe(before + 1);
    const counted = lines.map((l) =>
      Number(/ \((\d+) more refused attempts not logged before this one\)$/.exec(l)?.[1] ?? 0),
    );
    expect(counted.at(-1)).toBeGreaterThan(0);
    expect(lines.length + counted.reduce((a, b) => a + b, 0)).toBe(sent);

    // A well-formed request is still served on its merits.
    const request = {
      name: 'kid',
      parent: 'par',
      task: 'x',
      scope: [{ target: path.join(projectDir, 'missing'), permission: 'read', recursive: true }],
      secret: 'a'.repeat(64),
      cwd: projectDir,
      project_dir: projectDir,
    };
    const reply = JSON.parse((await nc.request(subject, JSON.stringify(request), { timeout: 30_000 })).string());
    expect(reply).toEqual({
      ok: false,
      error: `scope target ${path.join(projectDir, 'missing')} does not exist on host h1`,
    });
  }, 120_000);
});
