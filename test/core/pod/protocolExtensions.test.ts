import { afterEach, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import { MethodError } from '../../../core/plugin/ProtocolExtensions.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { RawClient } from '../../support/rawClient.js';
import { startTestPod, type TestPod } from '../../support/startTestPod.js';

// A plugin adds a v2 method and two events to the protocol, as the permission and MCP plugins do.
const votes = definePlugin({
  name: 'acme:votes',
  apply(api) {
    const tally = new Map<string, number>();
    const counted = api.event({
      name: 'vote_counted',
      schema: z.object({ option: z.string(), votes: z.int() }),
      v1: (d) => `a vote for ${d.option} was counted (${d.votes})`,
    });
    const standings = api.event({
      name: 'vote_standings',
      schema: z.object({ options: z.record(z.string(), z.int()) }),
    });
    api.method({
      name: 'vote',
      params: z.object({ option: z.string().min(1) }),
      handle({ option }) {
        if (option === 'nobody') throw new MethodError('invalid_request', 'nobody is not on the ballot');
        if (option === 'crash') throw new Error('ballot box on fire');
        tally.set(option, (tally.get(option) ?? 0) + 1);
        counted.emit({ option, votes: tally.get(option)! });
      },
    });
    api.method({
      name: 'vote_standings',
      params: null,
      handle: () => standings.reply({ options: Object.fromEntries(tally) }),
    });
  },
});

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

const lineWith = (raw: RawClient, fragment: string) =>
  raw.until(() => raw.lines.some((l) => l.includes(fragment))).then(() => raw.lines.find((l) => l.includes(fragment))!);

describe('protocol extensions from plugins', () => {
  it('a v2 method is acknowledged, its event broadcast with a seq, its reply sent to the requester only', async () => {
    tp = await startTestPod({ plugins: [...defaultPlugins(), votes()] });
    const voter = await RawClient.connect(tp.socket);
    const watcher = await RawClient.connect(tp.socket);
    const old = await RawClient.connect(tp.socket); // v1: never says hello
    for (const r of [voter, watcher]) r.write('{"method":"hello","params":{"protocol_version":2}}\n');
    await voter.until((e) => e.event === 'welcome');
    await watcher.until((e) => e.event === 'welcome');
    voter.write('{"method":"vote","request_id":"v1","params":{"option":"tea"}}\n');
    expect(JSON.parse(await lineWith(voter, '"request_id":"v1"'))).toEqual({
      event: 'ack',
      request_id: 'v1',
      data: { method: 'vote' },
    });
    const broadcast = JSON.parse(await lineWith(watcher, 'vote_counted'));
    expect(broadcast).toEqual({ event: 'vote_counted', seq: expect.any(Number), data: { option: 'tea', votes: 1 } });
    // A v1 client gets the alert the definition gives, never the unknown event.
    const alert = JSON.parse(await lineWith(old, 'was counted'));
    expect(alert).toMatchObject({ event: 'alert', data: { level: 'warn', message: 'a vote for tea was counted (1)' } });
    expect(old.lines.some((l) => l.includes('vote_counted'))).toBe(false);

    voter.write('{"method":"vote_standings","request_id":"s1"}\n');
    expect(JSON.parse(await lineWith(voter, '"request_id":"s1"'))).toEqual({
      event: 'vote_standings',
      request_id: 's1',
      data: { options: { tea: 1 } },
    });
    expect(watcher.lines.some((l) => l.includes('vote_standings'))).toBe(false);
    for (const r of [voter, watcher, old]) r.destroy();
  });

  it('bad params, a refusal and a crash are errors to the requester naming the cause; the pod keeps serving', async () => {
    tp = await startTestPod({ plugins: [...defaultPlugins(), votes()] });
    const r = await RawClient.connect(tp.socket);
    r.write('{"method":"vote","request_id":"a","params":{"option":"tea"}}\n'); // before hello: v2 only (a v1 error has no request_id)
    expect(await r.until((e) => e.event === 'error')).toMatchObject({
      data: { code: 'internal', message: 'method `vote` needs protocol version 2: send hello first' },
    });
    r.write('{"method":"hello","params":{"protocol_version":2}}\n');
    r.write('{"method":"vote","request_id":"b","params":{"option":""}}\n');
    r.write('{"method":"vote","request_id":"c","params":{"option":"nobody"}}\n');
    r.write('{"method":"vote","request_id":"d","params":{"option":"crash"}}\n');
    r.write('{"method":"vote_standings","request_id":"e","params":{"x":1}}\n');
    r.write('{"method":"get_history","request_id":"f"}\n');
    const data = async (id: string) => JSON.parse(await lineWith(r, `"request_id":"${id}"`)).data;
    expect((await data('b')).message).toMatch(/^invalid params for `vote`: option/);
    expect(await data('c')).toEqual({ code: 'invalid_request', message: 'nobody is not on the ballot' });
    expect(await data('d')).toEqual({
      code: 'internal',
      message: 'plugin acme:votes failed in method(vote): ballot box on fire',
    });
    expect(await data('e')).toMatchObject({ code: 'invalid_request', message: '`vote_standings` takes no params' });
    expect(await lineWith(r, '"request_id":"f"')).toContain('"event":"history"');
    r.destroy();
  });

  it("a plugin cannot redefine a protocol method or another plugin's method", () => {
    const clash = (name: string) =>
      definePlugin({
        name: `acme:${name}-clash`,
        apply: (api) => api.method({ name, params: null, handle: () => undefined }),
      })();
    expect(() => startTestPod({ plugins: [clash('run')] })).rejects.toThrow(
      'plugin acme:run-clash: method run is part of the protocol',
    );
  });
});
