import { afterEach, describe, expect, it } from '@jest/globals';
import { PodRequestError } from '../../../client/PodClient.js';
import { startTestPod } from '../../support/startTestPod.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Found by the random-lines fuzzer: a report naming a pod with a newline got a two-line refusal. */
describe('refused reports', () => {
  it('quote the pod name a client sent on one line, cut; the pod keeps running', async () => {
    const tp = await startTestPod();
    cleanups.push(() => tp.stop());
    const c = await tp.connect();
    cleanups.push(() => c.close());
    const send = (pod_name: string) =>
      c.request({ method: 'pod_event', params: { kind: 'shut_down', pod_name } }).then(
        () => undefined,
        (e: unknown) => e,
      );
    const newline = await send('a\nb\u2028c');
    expect(newline).toBeInstanceOf(PodRequestError);
    expect((newline as Error).message).toBe(
      'invalid_request: pod_event refused: `a\\u000ab\\u2028c` is not a pod this pod spawned or was told about',
    );
    const long = (await send('x'.repeat(5000))) as Error;
    expect(long.message).toBe(
      `invalid_request: pod_event refused: \`${'x'.repeat(100)}…\` is not a pod this pod spawned or was told about`,
    );
    expect((await c.request({ method: 'get_history' })).event).toBe('history');
  });
});
