import { afterEach, describe, expect, it } from '@jest/globals';
import { PodRequestError } from '../../../client/PodClient.js';
import { MAX_QUEUED_NOTES } from '../../../core/controller/PodController.js';
import type { Event } from '../../../core/protocol/index.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { recorder, startTestPod, text, until, type TestPod } from '../../support/startTestPod.js';
import { waitTool } from '../../support/testPlugins.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

describe('notifications waiting for the model are bounded', () => {
  it('past the bound a notify is refused in one line; the queued ones and the pod stay', async () => {
    tp = await startTestPod({
      files: {
        's.json': JSON.stringify([{ tool_calls: [{ name: 'Wait', arguments: { ms: 600_000 } }] }, { text: 'after' }]),
      },
      config: { model: { provider: 'scripted', script: 's.json' } },
      plugins: [...defaultPlugins(), waitTool()],
    });
    const c = await tp.connect();
    const events = recorder(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await until(events, (e: Event) => e.event === 'tool_call_done', 30_000); // the run now waits in its tool
    for (let i = 0; i < MAX_QUEUED_NOTES; i++) await c.request({ method: 'notify', params: { message: `note ${i}` } });
    const refused = await c.request({ method: 'notify', params: { message: 'one too many' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PodRequestError);
    expect((refused as Error).message).toBe(
      `invalid_request: ${MAX_QUEUED_NOTES} notifications are already waiting for the model; this one was not queued`,
    );
    await c.request({ method: 'cancel' });
    await until(events, (e: Event) => e.event === 'run_end', 30_000);
    // The pod goes on: the queued notes start a run of their own once it is idle.
    const ended = await until(
      events,
      (e: Event) => e.event === 'run_end' && e !== events.find((x) => x.event === 'run_end'),
      60_000,
    );
    expect(ended).toMatchObject({ event: 'run_end' });
    const history = await c.request({ method: 'get_history' });
    const json = JSON.stringify(history);
    expect(json).toContain(`note ${MAX_QUEUED_NOTES - 1}`);
    expect(json).not.toContain('one too many');
    await c.close();
  }, 120_000);
});
