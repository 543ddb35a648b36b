import { afterEach, describe, expect, it } from '@jest/globals';
import { ReportLedger } from '../../../core/controller/ReportLedger.js';
import { PodClient } from '../../../client/PodClient.js';
import type { Event } from '../../../core/protocol/index.js';
import {
  childReporter,
  recorder,
  runEnded,
  startTestPod,
  text,
  treeOf,
  type TestPod,
  until,
} from '../../support/startTestPod.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const errored = (message: string) => ({
  method: 'pod_event' as const,
  params: { kind: 'errored' as const, pod_name: 'kid', message },
});
const notesAbout = (tp: TestPod, what: string) =>
  tp.pod.runtime.history.filter(
    (i) => i.type === 'message' && i.role === 'system' && JSON.stringify(i.content).includes(what),
  ).length;

async function start(script: unknown[], dir?: string, resume?: true): Promise<TestPod> {
  const tp = await startTestPod({
    name: 'parent',
    ...(dir ? { dir } : {}),
    ...(resume ? { resume } : {}),
    files: { 's.json': JSON.stringify(script) },
    config: { model: { provider: 'scripted', script: 's.json' } },
  });
  cleanups.push(() => tp.stop());
  return tp;
}

/** The child's side, on the pod's socket with the secret it was recorded with. */
function kid(tp: TestPod): Promise<PodClient> {
  return PodClient.connect({ socketPath: tp.socket, clientName: 'pod/kid', auth: 'kid-test-secret' });
}

describe('ReportLedger', () => {
  it('applies an id once; a repeat while it is applied waits for it; bounded per reporter and in reporters', async () => {
    const ledger = new ReportLedger();
    let release!: () => void;
    const applied: string[] = [];
    const first = ledger.once('kid', 'a', async () => {
      await new Promise<void>((r) => (release = r));
      applied.push('a');
      ledger.record('kid', 'a', 'note a');
    });
    let repeatDone = false;
    const repeat = ledger
      .once('kid', 'a', async () => void applied.push('again'))
      .then((ran) => ((repeatDone = true), ran));
    await new Promise((r) => setImmediate(r));
    expect(repeatDone).toBe(false); // its ack must not precede the first one's record
    release();
    expect([await first, await repeat]).toEqual([true, false]);
    expect(await ledger.once('kid', 'a', async () => void applied.push('later'))).toBe(false);
    expect(applied).toEqual(['a']);
    expect(ledger.pendingNotes).toEqual([{ from: 'kid', request_id: 'a', note: 'note a' }]);
    ledger.drained();
    expect(ledger.snapshot()).toEqual({ applied: { kid: ['a'] }, pending: [] });

    for (let i = 0; i < 64; i++) ledger.record('kid', `n${i}`, undefined);
    expect(ledger.snapshot()!.applied.kid).toHaveLength(64);
    expect(ledger.snapshot()!.applied.kid).not.toContain('a'); // the oldest went first
    for (let i = 0; i < 256; i++) ledger.record(`pod-${i}`, 'x', undefined);
    expect(Object.keys(ledger.snapshot()!.applied)).toHaveLength(256);
    expect(ledger.snapshot()!.applied.kid).toBeUndefined();
    expect(ReportLedger.restore(ledger.snapshot()).snapshot()).toEqual(ledger.snapshot());
  });
});

describe('reports across a restart and a compaction', () => {
  it('a note the model had not read when the pod stopped is given to it after --resume, once; a retry is only acknowledged', async () => {
    const tp = await start([{ text: 'first', delay_ms: 60_000 }]);
    const c = await tp.connect();
    const events = recorder(c);
    await c.request({ method: 'run', params: { input: [text('work')] } });
    await until(events, (e) => e.event === 'turn_start');
    const reporter = await childReporter(tp, 'kid');
    await reporter.request(errored('disk on fire'), 10_000, 'kid-1');
    await reporter.close();
    expect(notesAbout(tp, 'disk on fire')).toBe(0); // queued for the run's next request, which never comes
    await c.close();
    await tp.stop();

    const again = await start([], tp.dir, true); // echo from now on
    const c2 = await again.connect();
    await again.pod.runtime.work.settled(); // the run the restored note started
    expect(notesAbout(again, 'disk on fire')).toBe(1);
    const retry = await kid(again);
    expect(await retry.request(errored('disk on fire'), 10_000, 'kid-1')).toMatchObject({ event: 'ack' });
    await retry.close();
    await again.pod.runtime.work.settled();
    expect(notesAbout(again, 'disk on fire')).toBe(1);
    await c2.close();
  }, 60_000);

  it('the applied ids go along into a compacted session: a retry after compaction and --resume is only acknowledged', async () => {
    const tp = await startTestPod({ name: 'parent' }); // echo: it answers, and summarises
    cleanups.push(() => tp.stop());
    treeOf(tp.pod); // the pod tree is there: the child is recorded by childReporter
    const c = await tp.connect();
    const ended = runEnded(c, 30_000);
    const reporter = await childReporter(tp, 'kid');
    await reporter.request(errored('flat tyre'), 10_000, 'kid-7');
    await reporter.close();
    await ended; // the note started a run, which read it
    expect(notesAbout(tp, 'flat tyre')).toBe(1);
    const compacted = c.waitFor((e) => e.event === 'compact_done', 30_000);
    await c.request({ method: 'compact' });
    await compacted;
    const before = tp.pod.sessionId;
    await c.close();
    await tp.stop();

    const again = await startTestPod({ name: 'parent', dir: tp.dir, resume: true });
    cleanups.push(() => again.stop());
    expect(again.pod.sessionId).toBe(before);
    const watcher = await again.connect();
    cleanups.push(() => watcher.close());
    const seen = recorder(watcher);
    const retry = await kid(again);
    expect(await retry.request(errored('flat tyre'), 10_000, 'kid-7')).toMatchObject({ event: 'ack' });
    await retry.close();
    await again.pod.runtime.work.settled();
    // Nothing was applied: no notification, no run.
    expect(seen.filter((e: Event) => ['notification', 'turn_start', 'user_message'].includes(e.event))).toEqual([]);
  }, 60_000);
});
