import { afterEach, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { readSession } from '../../../core/session/readSession.js';
import { RawClient } from '../../support/rawClient.js';
import { recorder, runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

const errorsOf = (c: RawClient) => c.events.filter((e) => e.event === 'error');

describe('bad input: the pod keeps running, only the offender hears about it', () => {
  it.each([
    ['malformed JSON', '{"method":"run",\n', /invalid method: malformed JSON/],
    ['unknown method', '{"method":"frobnicate"}\n', /unknown method `frobnicate`/],
    [
      'wrong field types',
      '{"method":"run","params":{"input":[{"kind":"text","content":42}]}}\n',
      /input\[0\]\.content: expected a string/,
    ],
    ['binary garbage', Buffer.from([0xff, 0xfe, 0x00, 0x9c, 0x0a]), /not valid UTF-8/],
    ['a BOM', '\ufeff{"method":"pause"}\n', /malformed JSON/],
  ])('%s', async (_name, line, pattern) => {
    tp = await startTestPod();
    const offender = await RawClient.connect(tp.socket);
    const bystander = await RawClient.connect(tp.socket);
    offender.write(line);
    const err = await offender.until((e) => e.event === 'error');
    expect(err.event === 'error' && err.data.message).toMatch(pattern);
    expect(err.event === 'error' && err.data.code).toBe('internal'); // v1 connection: v1 code
    // still usable, and the bystander saw nothing
    offender.write('{"method":"get_history"}\n');
    await offender.until((e) => e.event === 'history');
    bystander.write('{"method":"get_history"}\n');
    await bystander.until((e) => e.event === 'history');
    expect(errorsOf(bystander)).toEqual([]);
    expect(errorsOf(offender)).toHaveLength(1);
    offender.destroy();
    bystander.destroy();
  });

  it('an oversized line gets one error, the rest of it is discarded, and the connection goes on', async () => {
    tp = await startTestPod({ config: { limits: { maxLineBytes: 1024 } } });
    const c = await RawClient.connect(tp.socket);
    c.write(`{"method":"notify","params":{"message":"${'x'.repeat(5000)}`);
    c.write(`${'y'.repeat(5000)}"}}\n{"method":"get_history"}\n`);
    await c.until((e) => e.event === 'history');
    expect(errorsOf(c).map((e) => e.event === 'error' && e.data.message)).toEqual([
      'invalid method: line exceeds the 1 KiB limit; the rest of the line was discarded',
    ]);
    c.destroy();
  });

  it("an oversized request's error carries its request_id, so the client's request fails at once", async () => {
    tp = await startTestPod({ config: { limits: { maxLineBytes: 1024 } } });
    const c = await tp.connect();
    // Without the id the request would wait for its 60 s timeout, well past the test's.
    await expect(c.request({ method: 'run', params: { input: [text('x'.repeat(5000))] } }, 60_000)).rejects.toThrow(
      /line exceeds the 1 KiB limit/,
    );
    // Both orders clients write, in one chunk or in pieces, and an id with an escape.
    const raw = await RawClient.connect(tp.socket);
    raw.write('{"method":"hello","params":{"protocol_version":2}}\n');
    await raw.until((e) => e.event === 'welcome');
    raw.write(`{"request_id":"r\\"1","method":"notify","params":{"message":"${'x'.repeat(2000)}"}}\n`);
    raw.write('{"method":"notify","request_id":"r2","params":{"message":"');
    raw.write(`${'y'.repeat(2000)}"}}\n`);
    raw.write('{"method":"get_history","request_id":"h"}\n');
    await raw.until((e) => e.event === 'history');
    expect(errorsOf(raw).map((e) => e.request_id)).toEqual(['r"1', 'r2']);
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('still here')] } });
    await ended;
    raw.destroy();
  });

  it('a half line then close does not disturb the pod', async () => {
    tp = await startTestPod();
    const half = await RawClient.connect(tp.socket);
    half.write('{"method":"ru');
    half.destroy();
    const c = await tp.connect();
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('still here')] } });
    expect(await ended).toMatchObject({ event: 'run_end' });
    await c.close();
  });

  it('a client that writes a method and closes at once still has it processed', async () => {
    tp = await startTestPod();
    const watcher = await tp.connect();
    const ended = runEnded(watcher);
    await new Promise<void>((resolve) => {
      const s = net.connect(tp!.socket, () =>
        s.end('{"method":"run","params":{"input":[{"kind":"text","content":"fire and forget"}]}}\n', () => resolve()),
      );
    });
    expect(await ended).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    const h = await watcher.request({ method: 'get_history' });
    expect(JSON.stringify(h)).toContain('fire and forget');
    await watcher.close();
  });

  it('survives 500 connect/disconnect cycles during a run', async () => {
    const chunks = Array.from({ length: 2000 }, (_, i) => `d${i} `);
    tp = await startTestPod({
      files: { 'script.json': JSON.stringify([{ chunks, delay_ms: 10 }]) },
      config: { model: { provider: 'scripted', script: 'script.json' } },
    });
    const c = await tp.connect();
    const events = recorder(c);
    const ended = runEnded(c, 30_000);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    for (let i = 0; i < 500; i++) {
      const s = net.connect(tp.socket);
      await new Promise<void>((r) => s.once('connect', () => r()));
      if (i % 3 === 0) s.write('{"method":"get_history"}\n');
      s.destroy();
    }
    expect(await ended).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    expect(events.filter((e) => e.event === 'text_delta')).toHaveLength(2000);
    // Every churned connection is released (their 'close' may trail the run's end a little).
    for (let i = 0; i < 100 && tp.pod.bus.size > 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(tp.pod.bus.size).toBe(1);
    await c.close();
  });

  it('rejections go to the requester only, with its request_id', async () => {
    tp = await startTestPod({
      files: { 's.json': JSON.stringify([{ text: 'slow', delay_ms: 2000 }]) },
      config: { model: { provider: 'scripted', script: 's.json' } },
    });
    const a = await tp.connect();
    const b = await tp.connect();
    const bEvents = recorder(b);
    await a.request({ method: 'run', params: { input: [text('one')] } });
    await expect(a.request({ method: 'run', params: { input: [text('two')] } })).rejects.toThrow(
      'already_running: Pod is already executing a turn',
    );
    await expect(a.request({ method: 'resume' })).rejects.toThrow('already_running');
    expect(bEvents.filter((e) => e.event === 'error')).toEqual([]);
    await a.request({ method: 'cancel' });
    await expect(a.request({ method: 'cancel' })).rejects.toThrow('not_running: Pod is not running');
    await expect(a.request({ method: 'resume' })).rejects.toThrow('not_paused: Pod is not paused');
    await expect(a.request({ method: 'pause' })).rejects.toThrow('not_running');
    await a.close();
    await b.close();
  });

  it('nothing in the log is lost after all that', async () => {
    tp = await startTestPod();
    const c = await RawClient.connect(tp.socket);
    c.write('garbage\n{"method":"run","params":{"input":[{"kind":"text","content":"kept"}]}}\n');
    await c.until((e) => e.event === 'run_end');
    const state = readSession(tp.pod.runtime.session.file);
    expect(state.history.map((i) => i.type === 'message' && i.content[0].text)).toEqual(['kept', '[user] kept']);
    expect(state.interrupted).toBe(false);
    c.destroy();
  });
});
