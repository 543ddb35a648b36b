import { afterEach, describe, expect, it } from '@jest/globals';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { recorder, runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

/** Microtask hops after `beforeCompact`'s tap settles at which the compaction is stopped (one per attempt). */
const DEPTHS = 16;

/**
 * Replays a fuzz failure (bench/fuzz, test/core/pod/randomLines): a compaction stopped after
 * `beforeCompact` had settled but before `compact` was called still started the strategy with
 * its signal already aborted, and the summary's rejection was left unhandled (in a pod, Node's
 * default for an unhandled rejection ends the process). Each attempt stops the compaction a
 * different number of microtasks after the `beforeCompact` tap settles, so one of them lands in
 * that gap whatever the hooks' internal hops are. The rejection itself fails this suite (Jest
 * reports an unhandled rejection as the suite's failure).
 */
describe('a compaction stopped between its hooks', () => {
  it('does not start the strategy once stopped, ends with one terminal event, and leaves no rejection unhandled', async () => {
    let depth = 0;
    const startedStopped: number[] = [];
    const stopper = definePlugin({
      name: 'test:stop-between-hooks',
      apply(host) {
        host.hooks.beforeCompact.tapPromise('test:stop-between-hooks', async (request) => {
          let hops = depth;
          const step = (): void => {
            if (hops-- > 0) queueMicrotask(step);
            else tp?.pod.compactor.abort('stopped by the test');
          };
          queueMicrotask(step);
          return request;
        });
        // Runs before the summary strategy: records attempts whose strategy starts already stopped.
        host.hooks.compact.tapPromise({ name: 'test:stop-between-hooks', stage: -100 }, async (_request, ctx) => {
          if (ctx.signal.aborted) startedStopped.push(depth);
          return undefined;
        });
      },
    });
    const script = [{ text: 'hello' }, ...Array.from({ length: DEPTHS + 1 }, (_, i) => ({ text: `summary ${i}` }))];
    tp = await startTestPod({
      files: { 's.json': JSON.stringify(script) },
      // Nothing retained verbatim: the summary strategy asks the provider every time.
      config: {
        model: { provider: 'scripted', script: 's.json' },
        systemPrompt: 'You help.',
        compaction: { retainedTokens: 0 },
      },
      plugins: [...defaultPlugins(), stopper()],
    });
    const c = await tp.connect();
    const events = recorder(c);
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('hi')] } });
    await ended;
    const terminals: string[] = [];
    for (depth = 0; depth < DEPTHS; depth++) {
      const terminal = c.waitFor((e) => e.event === 'compact_done' || e.event === 'compact_failed');
      await c.request({ method: 'compact' });
      terminals.push((await terminal).event);
      await tp.pod.runtime.work.settled();
    }
    expect(startedStopped).toEqual([]);
    expect(terminals).toHaveLength(DEPTHS);
    // Early stops fail the compaction as stopped, not as a strategy error.
    expect(terminals[0]).toBe('compact_failed');
    expect(events.filter((e) => e.event === 'compact_start')).toHaveLength(DEPTHS);
    expect(tp.pod.status).toBe('idle');
    const again = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('still there?')] } });
    expect(await again).toMatchObject({ event: 'run_end' });
    await c.close();
  });
});
