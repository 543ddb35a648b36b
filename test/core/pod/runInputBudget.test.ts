import { afterEach, expect, it } from '@jest/globals';
import type { Event } from '../../../core/protocol/index.js';
import { startPod, type TestPodHandle } from '../../../testing/startPod.js';

// A run's resolved input is bounded as a whole (`limits.runInputBytes`), not only per segment.
// Replayed: 380 @refs to one in-scope 256 KiB file of \x01 bytes (6x longer as JSON) made one
// run's input longer than a JS string can be; the run failed with "Invalid string length", the
// next one never ended, and the pod then died.

const pods: TestPodHandle[] = [];
afterEach(async () => {
  for (const p of pods.splice(0)) await p.stop();
});

const refs = (n: number, path: string) => Array.from({ length: n }, () => ({ kind: 'file_ref' as const, path }));
const alertsOf = (events: Event[]) =>
  events.flatMap((e) => (e.event === 'alert' ? [`${e.data.level} ${e.data.message}`] : []));
const endOf = (events: Event[]) => events.find((e) => e.event === 'run_end' || e.event === 'error');

it('segments past the budget are left out, each a placeholder, with one alert; the run and the next ones end', async () => {
  const pod = await startPod({
    files: { 'a.txt': 'a'.repeat(200 * 1024) },
    config: { limits: { runInputBytes: 1024 * 1024 } },
  });
  pods.push(pod);
  const events = await pod.run([{ kind: 'text', content: 'read these' }, ...refs(20, 'a.txt')]);
  expect(endOf(events)).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
  // 200 KiB and its label each: five fit in 1 MiB, the sixth does not.
  expect(alertsOf(events)).toEqual([
    "warn this run's input is over 1 MiB (limits.runInputBytes): 15 of its 21 segments, from file_ref a.txt on, were left out; the model sees a placeholder for each",
  ]);
  const user = events.find((e) => e.event === 'user_message');
  expect(user).toBeDefined();
  const history = await pod.client.request({ method: 'get_history' });
  type Item = { content?: { text?: string }[] };
  const items = history.event === 'history' ? (history.data.items as Item[]) : [];
  const texts = items.map((i) => (Array.isArray(i.content) ? i.content.map((p) => p.text ?? '').join('') : ''));
  expect(texts.filter((t) => t.startsWith('[File: a.txt]'))).toHaveLength(5);
  expect(texts.find((t) => t.startsWith('read these'))).toBe(`read these${'[left out file_ref: a.txt]'.repeat(15)}`);
  expect(endOf(await pod.run('and now?'))).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
});

it('the budget alert comes first, so the cap on alerts per run never hides it behind per-segment warnings', async () => {
  const pod = await startPod({
    files: { 'b.txt': 'b'.repeat(300 * 1024) },
    config: { limits: { runInputBytes: 8 * 1024 * 1024 } },
  });
  pods.push(pod);
  // Each ref is cut to 256 KiB (one warning each): 31 fit in 8 MiB, 9 are left out.
  const alerts = alertsOf(await pod.run(refs(40, 'b.txt')));
  expect(alerts).toHaveLength(20);
  expect(alerts[0]).toMatch(/^warn this run's input is over 8 MiB \(limits\.runInputBytes\): 9 of its 40 segments/);
  expect(alerts.at(-1)).toMatch(/more alerts about this run's input/);
});

it('the replayed attack, at the default budget: the run ends, later runs and get_history work', async () => {
  const pod = await startPod({ files: { 'ctl.txt': '\x01'.repeat(256 * 1024) } });
  pods.push(pod);
  const events = await pod.run([{ kind: 'text', content: 'hi' }, ...refs(380, 'ctl.txt')], 120_000);
  expect(endOf(events)).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
  expect(alertsOf(events)).toEqual([
    expect.stringMatching(
      /^warn this run's input is over 16 MiB \(limits\.runInputBytes\): 3\d\d of its 381 segments, from file_ref ctl\.txt on, were left out/,
    ),
  ]);
  expect(endOf(await pod.run('ok', 120_000))).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
  expect((await pod.client.request({ method: 'get_history' })).event).toBe('history');
}, 240_000);
