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
    expect(names.filter((n) => !['status', 'ack'].includes(n))).toEqual([
      'user_message',
      'turn_start',
      'text_delta',
      'text_done',
      'usage',
      'turn_end',
      'run_end',
    ]);
    const done = events.find((e) => e.event === 'text_done');
    expect(done?.data).toEqual({ text: '[user] hello' });
    // seq is gap-free over broadcasts
    const seqs = events.filter((e) => e.seq !== undefined).map((e) => e.seq!);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));
    const history = await client.request({ method: 'get_history' });
    expect(history.event === 'history' && history.data.items).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'text', text: 'hello' }],
        segments: [{ kind: 'text', content: 'hello' }],
      },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: '[user] hello' }] },
    ]);
    await client.close();
  });
});

describe('history keeps the typed segments of user input', () => {
  it('get_history returns them (unknown kinds as sent), also after a restart', async () => {
    tp = await startTestPod({ files: { 'a.txt': 'A' } });
    let c = await tp.connect();
    const input = [
      { kind: 'text', content: 'look ' },
      { kind: 'paste', id: 3, chars: 5, lines: 2, content: 'x\ny\nz' },
      { kind: 'file_ref', path: 'a.txt' },
      { kind: 'image', url: 'u', size: 1.5 },
    ];
    const ended = runEnded(c);
    c.send({ method: 'run', params: { input } } as never);
    await ended;
    const wire = (h: unknown) => JSON.parse(JSON.stringify(h));
    let history = await c.request({ method: 'get_history' });
    const user = history.event === 'history' ? wire(history.data.items[0]) : undefined;
    expect(user.segments).toEqual(input);
    await c.close();
    const dir = tp.dir;
    await tp.stop();
    tp = await startTestPod({ dir, resume: true });
    c = await tp.connect();
    history = await c.request({ method: 'get_history' });
    expect(history.event === 'history' && wire(history.data.items[0]).segments).toEqual(input);
    await c.close();
  });
});
