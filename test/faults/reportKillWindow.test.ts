import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import type { Event } from '../../core/protocol/index.js';
import { doubledRunEnds } from '../support/killCheck.js';
import { liveHistory, loggedSession } from '../support/logReplay.js';
import { historyItems, startRootPod } from '../support/rootPodProcess.js';
import { makeProject } from '../support/startTestPod.js';
import { eventually, killPointConfig, notesAbout } from '../support/reportKillPoint.js';

/**
 * The kill window of a child's report on the Unix socket path: the parent (a real `yoi pod start`)
 * is SIGKILLed (A) right after the report's side effects ran, before anything recorded it — a
 * hook-driven kill point: the side-effect plugin kills its own process — and (B) right after the
 * report was recorded, before its ack could matter — at the `notification` broadcast that follows
 * the record. The child retries each report under its request id after the restart (`--resume`),
 * as its outbox does. Each report reaches the model exactly once, and the side effect keyed by
 * the request id happened once.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SECRET = 'kid-report-secret-0123456789';

describe('the kill window of a report (Unix socket path)', () => {
  it('a parent killed after the side effects, or after the record, applies each retried report exactly once', async () => {
    const dir = fs.realpathSync(makeProject({ 'yoi.config.ts': killPointConfig() }));
    const run = path.join(dir, 'run');
    const env = { YOI_RUNTIME_DIR: run };
    const cli = { cwd: dir, env };
    // The parent knows its child `kid` and its secret, as SpawnPod would have recorded it.
    fs.mkdirSync(path.join(run, 'root'), { recursive: true, mode: 0o700 });
    fs.chmodSync(run, 0o700);
    fs.writeFileSync(
      path.join(run, 'root', 'spawned_pods.json'),
      JSON.stringify([
        {
          pod_name: 'kid',
          socket_path: path.join(run, 'kid', 'sock'),
          scope_delegated: [],
          callback_address: path.join(run, 'root', 'sock'),
          secret: SECRET,
        },
      ]),
      { mode: 0o600 },
    );

    const start = (args: string[]) => startRootPod(dir, env, args, cleanups);
    /** The child's side: one report under its request id, on a fresh connection as a retry is. */
    const report = async (socket: string, id: string, message: string) => {
      const kid = await PodClient.connect({
        socketPath: socket,
        clientName: 'pod/kid',
        auth: SECRET,
        requestTimeoutMs: 30_000,
      });
      try {
        return await kid.request(
          { method: 'pod_event', params: { kind: 'errored', pod_name: 'kid', message } },
          30_000,
          id,
        );
      } finally {
        await kid.close();
      }
    };
    const effects = () => fs.readFileSync(path.join(dir, 'effects.log'), 'utf8').split('\n').filter(Boolean);

    // A session to resume.
    const first = await start([]);
    const ended = first.client.waitFor((e: Event) => e.event === 'run_end', 60_000);
    await first.client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'hello' }] } });
    await ended;

    // (A) Killed by the side effect itself: the report is not recorded, its ack never sent.
    fs.writeFileSync(path.join(dir, 'kill.armed'), '');
    await expect(report(first.pod.socket, 'kid-a', 'first failure')).rejects.toThrow();
    await first.pod.exited;
    expect(effects()).toEqual(['kid-a']);

    const second = await start(['--resume']);
    const recordedB = second.client.waitFor(
      (e: Event) => e.event === 'notification' && JSON.stringify(e.data).includes('second failure'),
      60_000,
    );
    expect(await report(second.pod.socket, 'kid-a', 'first failure')).toMatchObject({ event: 'ack' });
    await eventually(
      'the first report in the history',
      async () => notesAbout(await historyItems(second.client), 'first failure') >= 1,
    );

    // (B) Killed once the report is recorded (the broadcast after the record), whether or not its ack left.
    const pid = second.pod.child.pid!;
    void recordedB.then(
      () => process.kill(pid, 'SIGKILL'),
      () => undefined,
    );
    await report(second.pod.socket, 'kid-b', 'second failure').catch(() => undefined);
    await second.pod.exited;

    const third = await start(['--resume']);
    // The child retries both (it cannot know what was applied): each is acknowledged, neither applied again.
    expect(await report(third.pod.socket, 'kid-b', 'second failure')).toMatchObject({ event: 'ack' });
    expect(await report(third.pod.socket, 'kid-a', 'first failure')).toMatchObject({ event: 'ack' });
    // A run after the retries: anything they had queued would be in the history by its end.
    const checked = third.client.waitFor((e: Event) => e.event === 'run_end', 60_000);
    await third.client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'checkpoint' }] } });
    await checked;
    await eventually('the pod idle', async () => third.client.status === 'idle');

    const live = await liveHistory(cli, 'root');
    expect([notesAbout(live, 'first failure'), notesAbout(live, 'second failure')]).toEqual([1, 1]);
    expect(effects()).toEqual(['kid-a', 'kid-b']);
    expect((await loggedSession(cli, third.client.welcome!.session_id)).history).toEqual(live);
    expect(doubledRunEnds(path.join(dir, '.yoi', 'sessions'))).toBe(0);
  }, 240_000);
});
