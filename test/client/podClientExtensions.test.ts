import { afterEach, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { PodRequestError, type UnknownEvent } from '../../client/PodClient.js';
import { definePlugin } from '../../core/plugin/definePlugin.js';
import { MethodError } from '../../core/plugin/ProtocolExtensions.js';
import { defaultPlugins } from '../../plugins/index.js';
import { startTestPod, type TestPod } from '../support/startTestPod.js';

// A plugin's method and events, as PodClient users (the CLI) see them.
const bell = definePlugin({
  name: 'acme:bell',
  apply(api) {
    let rings = 0;
    const rang = api.event({ name: 'bell_rang', schema: z.object({ rings: z.int() }) });
    const count = api.event({ name: 'bell_count', schema: z.object({ rings: z.int() }) });
    api.method({
      name: 'bell_ring',
      params: z.object({ loud: z.boolean() }),
      handle({ loud }) {
        if (!loud) throw new MethodError('invalid_request', 'ring it loud');
        rang.emit({ rings: ++rings });
      },
    });
    api.method({ name: 'bell_count', params: null, handle: () => count.reply({ rings }) });
  },
});

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

describe('PodClient and plugin-defined protocol extensions', () => {
  it('hands extension events to onUnknownEvent, answers requestExtension with ack, the reply or the error', async () => {
    tp = await startTestPod({ plugins: [...defaultPlugins(), bell()] });
    const ringer = await tp.connect();
    const watcher = await tp.connect();
    const seen: UnknownEvent[] = [];
    watcher.onUnknownEvent((e) => seen.push(e));
    const known: string[] = [];
    watcher.onEvent((e) => known.push(e.event));

    const heard = new Promise<UnknownEvent>((resolve) =>
      watcher.onUnknownEvent((e) => e.event === 'bell_rang' && resolve(e)),
    );
    await expect(ringer.requestExtension('bell_ring', { loud: true })).resolves.toMatchObject({
      event: 'ack',
      data: { method: 'bell_ring' },
    });
    expect(await heard).toEqual({
      event: 'bell_rang',
      seq: expect.any(Number),
      data: { rings: 1 },
      line: expect.stringContaining('"bell_rang"'),
    });

    await expect(ringer.requestExtension('bell_count')).resolves.toMatchObject({
      event: 'bell_count',
      request_id: expect.any(String),
      data: { rings: 1 },
    });
    const refused = ringer.requestExtension('bell_ring', { loud: false });
    await expect(refused).rejects.toBeInstanceOf(PodRequestError);
    await expect(refused).rejects.toThrow('invalid_request: ring it loud');
    await expect(ringer.requestExtension('bell_unknown')).rejects.toThrow(/invalid_request/);
    // The typed listeners never see a plugin's event; the typed request still works.
    expect(known).not.toContain('bell_rang');
    await expect(ringer.request({ method: 'get_history' })).resolves.toMatchObject({ event: 'history' });
    expect(seen.map((e) => e.event)).toEqual(['bell_rang']);
    await ringer.close();
    await watcher.close();
  });
});
