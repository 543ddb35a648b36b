import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { definePlugin } from '../../core/plugin/definePlugin.js';

/** Calls made to the `Wait` tool, in order (shared by the tests of one file). */
export const waitCalls: { ms: number; finished: boolean }[] = [];

/** A `Wait{ms}` tool that sleeps (abortably) and reports it; lets tests pause mid-tool. */
export const waitTool = definePlugin({
  name: 'test:wait',
  apply(host) {
    host.hooks.tools.for('Wait').tap('test:wait', () => ({
      name: 'Wait',
      description: 'Waits for ms milliseconds.',
      input: z.object({ ms: z.number().int().min(0) }),
      async execute({ ms }, ctx) {
        const call = { ms, finished: false };
        waitCalls.push(call);
        await sleep(ms, undefined, { signal: ctx.signal });
        call.finished = true;
        return { summary: `waited ${ms} ms`, content: `done after ${ms} ms` };
      },
    }));
  },
});

/** A resolver for kind `boom` that always throws. */
export const throwingResolver = definePlugin({
  name: 'test:boom',
  apply(host) {
    host.hooks.resolveSegment.for('boom').tapPromise('test:boom', async () => {
      throw new Error('kaboom');
    });
  },
});
