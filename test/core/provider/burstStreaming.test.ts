import { afterEach, describe, expect, it } from '@jest/globals';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import type { Provider, ProviderPart } from '../../../core/provider/Provider.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { recorder, runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

/**
 * A reply the provider has all at once (a fast server: the whole body in a few reads) used to be
 * parsed to its end before the first delta left the pod: buffered stream reads resolve as
 * microtasks, so the sockets' writes never got a turn. Here the provider yields its parts without
 * ever waiting on I/O and notes, at each part, whether a client has seen a delta yet.
 */
const PARTS = 40_000;
const seen = { client: false, atPart: -1 };

const burstProvider = definePlugin({
  name: 'test:burst',
  apply(api) {
    api.hooks.providers.for('burst').tap('test:burst', (): Provider => ({
      name: 'burst',
      model: 'burst',
      async *stream(): AsyncGenerator<ProviderPart> {
        for (let i = 0; i < PARTS; i++) {
          if (seen.client && seen.atPart < 0) seen.atPart = i;
          yield { type: 'text-delta', text: `t${i} ` };
        }
        yield { type: 'finish', reason: 'stop' };
      },
    }));
  },
});

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

describe('a reply that arrives in one burst', () => {
  it('reaches the client while the provider is still yielding it, and whole', async () => {
    tp = await startTestPod({
      config: { model: { provider: 'burst' } },
      plugins: [...defaultPlugins(), burstProvider()],
    });
    const c = await tp.connect();
    const events = recorder(c);
    c.onEvent((e) => {
      if (e.event === 'text_delta') seen.client = true;
    });
    const ended = runEnded(c, 120_000);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    expect(await ended).toMatchObject({ data: { result: 'finished' } });
    expect(seen.atPart).toBeGreaterThan(0);
    expect(seen.atPart).toBeLessThan(PARTS);
    const deltas = events.filter((e) => e.event === 'text_delta');
    expect(deltas).toHaveLength(PARTS);
    expect(events.find((e) => e.event === 'text_done')).toMatchObject({
      data: { text: Array.from({ length: PARTS }, (_, i) => `t${i} `).join('') },
    });
    await c.close();
  }, 180_000);
});
