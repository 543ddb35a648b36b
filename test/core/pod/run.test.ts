import { afterEach, describe, expect, it } from '@jest/globals';
import { recorder, runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

describe('a run on the echo provider', () => {
  it('streams the resolved context back with the v1 event sequence plus v2 extras', async () => {
    tp = await startTestPod();
    const client = await tp.connect();
    expect(client.welcome).toMatchObject({ protocol_version: 2, pod_name: 'test', status: 'idle' });
    const events = recorder(client);
    const ended = runEnded(client);
    const ack = await client.request({ method: 'run', params: { input: [text('hello')] } });
    expect(ack).toMatchObject({ event: 'ack', data: { method: 'run' } });
    await ended;
    const names = events.map((e) => e.event);
    expect(names.indexOf('ack')).toBeLessThan(names.indexOf('user_message'));
    expect(names.filter((n) => !['status', 'ack'].includes(n))).toEqual(['user_message', 'turn_start', 'text_delta', 'text_done', 'usage', 'turn_end', 'run_end']);
    const done = events.find((e) => e.event === 'text_done');
    expect(done?.data).toEqual({ text: '[user] hello' });
    // seq is gap-free over broadcasts
    const seqs = events.filter((e) => e.seq !== undefined).map((e) => e.seq!);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));
    const history = await client.request({ method: 'get_history' });
    expect(history.event === 'history' && history.data.items).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'hello' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: '[user] hello' }] },
    ]);
    await client.close();
  });
});
