import { afterEach, describe, expect, it } from '@jest/globals';
import { globInWorker } from '../../../plugins/tools/glob/globInWorker.js';
import type { Event } from '../../../core/protocol/index.js';
import { recorder, runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';
import { sandbox } from './toolHarness.js';

// A pattern picomatch's regex backtracks on for hours against one 60-character name (each
// `*` in a segment multiplies the work): the attack that once froze a whole pod.
const LONG_NAME = 'a'.repeat(60);
const EVIL = '*a'.repeat(14) + 'b';

let box: ReturnType<typeof sandbox> | undefined;
let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
  box?.remove();
  box = undefined;
});

describe('Glob against a backtracking pattern', () => {
  it('gives up after its time limit while the pod thread keeps running', async () => {
    box = sandbox({ [LONG_NAME]: 'x' });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const started = Date.now();
    try {
      await expect(
        globInWorker({ pattern: EVIL, cwd: box.project, ignore: [] }, new AbortController().signal, 400),
      ).rejects.toThrow(/^Glob gave up after 0.4 s matching \*a\*a/);
    } finally {
      clearInterval(ticker);
    }
    expect(Date.now() - started).toBeLessThan(5000);
    expect(ticks).toBeGreaterThan(3); // the timers of this thread ran during the walk
  });

  it('stops at once when its signal aborts', async () => {
    box = sandbox({ [LONG_NAME]: 'x' });
    const controller = new AbortController();
    const walk = globInWorker({ pattern: EVIL, cwd: box.project, ignore: [] }, controller.signal);
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 100);
    await expect(walk).rejects.toThrow('cancelled by the user');
  });

  it('through a pod: the tool deadline ends the call and the pod serves the next run', async () => {
    tp = await startTestPod({
      files: {
        [LONG_NAME]: 'x',
        's.json': JSON.stringify([
          { tool_calls: [{ name: 'Glob', arguments: { pattern: EVIL } }] },
          { text: 'gave up' },
          { tool_calls: [{ name: 'Glob', arguments: { pattern: 'a*' } }] },
          { text: 'found it' },
        ]),
      },
      config: { model: { provider: 'scripted', script: 's.json' }, limits: { toolTimeoutMs: 1000 } },
    });
    const run = async () => {
      const c = await tp!.connect();
      const events = recorder(c);
      const ended = runEnded(c);
      await c.request({ method: 'run', params: { input: [text('glob')] } });
      const end = await ended;
      await c.close();
      const result = events.find((e: Event) => e.event === 'tool_result')?.data as {
        summary: string;
        is_error: boolean;
      };
      return { end, result };
    };
    const first = await run();
    expect(first.end).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    expect(first.result).toMatchObject({
      is_error: true,
      summary: 'Timed out: Glob did not finish within 1 s (limits.toolTimeoutMs) and was stopped',
    });
    const second = await run();
    expect(second.end).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    expect(second.result).toMatchObject({ is_error: false, summary: 'Found 1 file matching a*' });
  });
});
