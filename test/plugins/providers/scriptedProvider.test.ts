import { afterEach, expect, it } from '@jest/globals';
import { runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

const pods: TestPod[] = [];
afterEach(async () => {
  for (const p of pods.splice(0)) await p.stop();
});

it('`{pod}` in the script path is the pod name: pods sharing a config follow their own scripts', async () => {
  const files = {
    'script.alpha.json': JSON.stringify([{ text: 'I am alpha' }]),
    'script.beta.json': JSON.stringify([{ text: 'I am beta' }]),
  };
  const alpha = await startTestPod({
    name: 'alpha',
    files,
    config: { model: { provider: 'scripted', script: 'script.{pod}.json' } },
  });
  pods.push(alpha);
  const beta = await startTestPod({ name: 'beta', dir: alpha.dir });
  pods.push(beta);
  for (const [tp, expected] of [
    [alpha, 'I am alpha'],
    [beta, 'I am beta'],
  ] as const) {
    expect(tp.pod.provider.model).toBe(`script.${tp.pod.name}.json`);
    const c = await tp.connect();
    const done = c.waitFor((e) => e.event === 'text_done');
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('who are you?')] } });
    expect((await done).data).toEqual({ text: expected });
    await ended;
    await c.close();
  }
});
