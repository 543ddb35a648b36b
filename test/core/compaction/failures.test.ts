import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import type { Event } from '../../../core/protocol/index.js';
import { readSession } from '../../../core/session/readSession.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { RawClient } from '../../support/rawClient.js';
import { recorder, runEnded, startTestPod, text, until, type TestPod } from '../../support/startTestPod.js';
import { waitTool } from '../../support/testPlugins.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

const big = { input_tokens: 5000, output_tokens: 5 };

function scripted(script: unknown[], compaction: Record<string, unknown>, plugins = [...defaultPlugins(), waitTool()]) {
  return {
    files: { 's.json': JSON.stringify(script) },
    config: { model: { provider: 'scripted', script: 's.json' }, systemPrompt: 'You help.', compaction },
    plugins,
  };
}

/** A strategy that always throws (replaces the default one). */
const brokenStrategy = definePlugin({
  name: 'test:broken-compact',
  apply(host) {
    host.hooks.compact.tapPromise('test:broken-compact', async () => {
      throw new Error('no summary today');
    });
  },
});

/** A strategy that never answers and ignores its signal. */
const stuckStrategy = definePlugin({
  name: 'test:stuck-compact',
  apply(host) {
    host.hooks.compact.tapPromise('test:stuck-compact', () => new Promise(() => undefined));
  },
});

const compactEvents = (events: Event[]) => events.filter((e) => e.event.startsWith('compact_'));
const alerts = (events: Event[]) => events.flatMap((e) => (e.event === 'alert' ? [e.data] : []));
const sessionFiles = (tp: TestPod) => fs.readdirSync(path.join(tp.dir, '.yoi', 'sessions'));

async function run(c: Awaited<ReturnType<TestPod['connect']>>, input: string) {
  const ended = runEnded(c);
  await c.request({ method: 'run', params: { input: [text(input)] } });
  return ended;
}

/** Runs a manual compaction and resolves with its terminal event. */
async function compact(c: Awaited<ReturnType<TestPod['connect']>>) {
  const terminal = c.waitFor((e) => e.event === 'compact_done' || e.event === 'compact_failed');
  await c.request({ method: 'compact' });
  return terminal;
}

describe('compaction failures', () => {
  it('a failing strategy gives compact_failed naming the plugin, an alert from the compactor, and an unchanged session', async () => {
    const plugins = [...defaultPlugins({ exclude: ['yoi:compact-summary'] }), brokenStrategy()];
    tp = await startTestPod(scripted([{ text: 'hello' }], {}, plugins));
    const c = await tp.connect();
    const v1 = await RawClient.connect(tp.socket);
    const events = recorder(c);
    await run(c, 'hi');
    const before = {
      id: tp.pod.sessionId,
      history: [...tp.pod.controller.history],
      bytes: fs.readFileSync(tp.pod.runtime.session.file, 'utf8'),
    };
    const failed = await compact(c);
    const error = 'plugin test:broken-compact failed in compact: no summary today';
    expect(failed).toMatchObject({ event: 'compact_failed', data: { error } });
    expect(compactEvents(events).map((e) => e.event)).toEqual(['compact_start', 'compact_failed']);
    const ack = events.findIndex((e) => e.event === 'ack' && e.data.method === 'compact');
    expect(ack).toBeGreaterThan(-1);
    expect(ack).toBeLessThan(events.findIndex((e) => e.event === 'compact_start'));
    expect(alerts(events)).toEqual([
      { level: 'warn', source: 'compactor', message: `compaction failed: ${error}`, timestamp_ms: expect.any(Number) },
    ]);
    await until(
      events,
      (e) => e.event === 'status' && e.data.status === 'idle' && events.indexOf(e) > events.indexOf(failed),
    );
    expect(tp.pod.sessionId).toBe(before.id);
    expect(tp.pod.controller.history).toEqual(before.history);
    expect(fs.readFileSync(tp.pod.runtime.session.file, 'utf8')).toBe(before.bytes);
    expect(sessionFiles(tp)).toHaveLength(1);
    await v1.until((e) => e.event === 'compact_failed');
    expect(v1.lines.filter((l) => l.includes('compact_'))).toEqual([
      '{"event":"compact_start"}',
      `{"event":"compact_failed","data":{"error":"${error}"}}`,
    ]);
    // The pod goes on in the old session.
    expect(await run(c, 'again')).toMatchObject({ event: 'run_end' });
    expect(readSession(tp.pod.runtime.session.file).history).toEqual(tp.pod.controller.history);
    v1.destroy();
    await c.close();
  });

  it('a provider error during the summary fails the compaction, not the pod', async () => {
    tp = await startTestPod(
      scripted([{ text: 'hello', usage: big }, { error: 'provider 429' }, { text: 'still here' }], { threshold: 1000 }),
    );
    const c = await tp.connect();
    const events = recorder(c);
    const failed = c.waitFor((e) => e.event === 'compact_failed');
    await run(c, 'hi');
    expect(await failed).toMatchObject({
      data: { error: 'plugin yoi:compact-summary failed in compact: provider 429' },
    });
    expect(alerts(events)).toEqual([
      expect.objectContaining({
        level: 'warn',
        source: 'compactor',
        message: 'post-run compaction failed: plugin yoi:compact-summary failed in compact: provider 429',
      }),
    ]);
    await tp.pod.runtime.work.settled();
    expect(tp.pod.status).toBe('idle');
    expect(sessionFiles(tp)).toHaveLength(1);
    await c.close();
  });

  it('three failures in a row disable automatic compaction; a manual compaction that succeeds enables it again', async () => {
    tp = await startTestPod(
      scripted(
        [
          { text: 'a', usage: big },
          { error: 'e1' },
          { text: 'b', usage: big },
          { error: 'e2' },
          { text: 'c', usage: big },
          { error: 'e3' },
          { text: 'd', usage: big },
          { text: 'MANUAL SUMMARY' },
          { text: 'e', usage: big },
          { text: 'AUTO SUMMARY' },
        ],
        { threshold: 1000 },
      ),
    );
    const c = await tp.connect();
    const events = recorder(c);
    for (const input of ['1', '2', '3']) {
      const failed = c.waitFor((e) => e.event === 'compact_failed');
      await run(c, input);
      await failed;
    }
    await tp.pod.runtime.work.settled();
    const messages = alerts(events).map((a) => a.message);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toBe('post-run compaction failed: plugin yoi:compact-summary failed in compact: e1');
    expect(messages[2]).toBe(
      'post-run compaction failed: plugin yoi:compact-summary failed in compact: e3; automatic compaction is disabled after 3 consecutive failures until a manual compaction (yoi compact) succeeds',
    );
    expect(tp.pod.compactor.disabled).toBe(true);

    await run(c, '4'); // over the threshold, but disabled
    await tp.pod.runtime.work.settled();
    expect(compactEvents(events)).toHaveLength(6);

    expect(await compact(c)).toMatchObject({ event: 'compact_done' });
    expect(tp.pod.compactor.disabled).toBe(false);
    expect(alerts(events).at(-1)?.message).toBe('compaction succeeded: automatic compaction is enabled again');

    const done = c.waitFor((e) => e.event === 'compact_done');
    await run(c, '5');
    await done;
    expect(tp.pod.controller.history[0]).toMatchObject({
      role: 'system',
      content: [{ text: '[Compacted context summary]\n\nAUTO SUMMARY' }],
    });
    await c.close();
  });

  it('a manual compact while compacting or with an empty history is refused', async () => {
    tp = await startTestPod(scripted([{ text: 'hello' }, { text: 'SUMMARY', delay_ms: 500 }], {}));
    const c = await tp.connect();
    await expect(c.request({ method: 'compact' })).rejects.toThrow(
      'invalid_request: nothing to compact: the history is empty',
    );
    await run(c, 'hi');
    const done = c.waitFor((e) => e.event === 'compact_done');
    await c.request({ method: 'compact' });
    await expect(c.request({ method: 'compact' })).rejects.toThrow(
      'already_running: Pod is already compacting its history',
    );
    await expect(c.request({ method: 'run', params: { input: [text('x')] } })).rejects.toThrow(/^already_running/);
    await done;
    await c.close();
  });
});

describe('stopping a compaction', () => {
  it('pause during a post-run compaction aborts it; the session is unchanged and the pod idle', async () => {
    tp = await startTestPod(
      scripted([{ text: 'hello', usage: big }, { text: 'SUMMARY', delay_ms: 10_000 }, { text: 'next' }], {
        threshold: 1000,
      }),
    );
    const c = await tp.connect();
    const events = recorder(c);
    const started = c.waitFor((e) => e.event === 'compact_start');
    await run(c, 'hi');
    await started;
    const before = { id: tp.pod.sessionId, bytes: fs.readFileSync(tp.pod.runtime.session.file, 'utf8') };
    const failed = c.waitFor((e) => e.event === 'compact_failed');
    await c.request({ method: 'pause' });
    expect(await failed).toMatchObject({ data: { error: 'aborted: paused by the user' } });
    await tp.pod.runtime.work.settled();
    expect(tp.pod.status).toBe('idle');
    expect(tp.pod.sessionId).toBe(before.id);
    expect(fs.readFileSync(tp.pod.runtime.session.file, 'utf8')).toBe(before.bytes);
    expect(sessionFiles(tp)).toHaveLength(1);
    expect(alerts(events)).toEqual([]); // the user stopped it: no failure to report
    expect(compactEvents(events).map((e) => e.event)).toEqual(['compact_start', 'compact_failed']);
    await expect(c.request({ method: 'pause' })).rejects.toThrow(/^not_running/);
    await c.close();
  });

  it('cancel during a mid-turn compaction aborts it and ends the run with its terminal event', async () => {
    tp = await startTestPod(
      scripted(
        [
          { tool_calls: [{ name: 'Wait', arguments: { ms: 1 } }], usage: big },
          { text: 'SUMMARY', delay_ms: 10_000 },
        ],
        { requestThreshold: 1000 },
      ),
    );
    const c = await tp.connect();
    const events = recorder(c);
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await until(events, (e) => e.event === 'compact_start');
    const oldId = tp.pod.sessionId;
    await c.request({ method: 'cancel' });
    expect(await ended).toMatchObject({ event: 'run_end', data: { result: 'cancelled' } });
    const kinds = events.map((e) => e.event).filter((n) => n.startsWith('compact_') || n === 'run_end');
    expect(kinds).toEqual(['compact_start', 'compact_failed', 'run_end']);
    expect(events.find((e) => e.event === 'compact_failed')).toMatchObject({
      data: { error: 'aborted: the run was paused or cancelled' },
    });
    await tp.pod.runtime.work.settled();
    expect(tp.pod.status).toBe('idle');
    expect(tp.pod.sessionId).toBe(oldId);
    expect(sessionFiles(tp)).toHaveLength(1);
    const logged = readSession(tp.pod.runtime.session.file);
    expect(logged.history).toEqual(tp.pod.controller.history);
    expect(logged.interrupted).toBe(false);
    await c.close();
  });

  it('pause during a mid-turn compaction pauses the run; resume compacts again and continues', async () => {
    tp = await startTestPod(
      scripted(
        [
          { tool_calls: [{ name: 'Wait', arguments: { ms: 1 } }], usage: big },
          { text: 'SUMMARY', delay_ms: 10_000 },
          { text: 'SUMMARY 2' },
          { text: 'resumed' },
        ],
        { requestThreshold: 1000 },
      ),
    );
    const c = await tp.connect();
    const events = recorder(c);
    let ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await until(events, (e) => e.event === 'compact_start');
    await c.request({ method: 'pause' });
    expect(await ended).toMatchObject({ data: { result: 'paused' } });
    expect(tp.pod.status).toBe('paused');
    ended = runEnded(c);
    await c.request({ method: 'resume' });
    expect(await ended).toMatchObject({ data: { result: 'finished' } });
    expect(compactEvents(events).map((e) => e.event)).toEqual([
      'compact_start',
      'compact_failed',
      'compact_start',
      'compact_done',
    ]);
    expect(tp.pod.controller.history.at(-1)).toMatchObject({ role: 'assistant', content: [{ text: 'resumed' }] });
    await c.close();
  });

  it('a manual compact while paused keeps the waiting tool call; resume is refused until it is done, then runs the call', async () => {
    tp = await startTestPod(
      scripted(
        [
          { text: 'first', tool_calls: [{ name: 'Wait', arguments: { ms: 1000 } }] },
          { text: 'SUMMARY', delay_ms: 300 },
          { text: 'after' },
        ],
        {},
      ),
    );
    const c = await tp.connect();
    const events = recorder(c);
    let ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await until(events, (e) => e.event === 'tool_call_done');
    await c.request({ method: 'pause' });
    await ended;
    const done = c.waitFor((e) => e.event === 'compact_done');
    await c.request({ method: 'compact' });
    await expect(c.request({ method: 'resume' })).rejects.toThrow('already_running: Pod is compacting its history');
    await done;
    await until(
      events,
      (e) =>
        e.event === 'status' &&
        e.data.status === 'paused' &&
        events.indexOf(e) > events.findIndex((x) => x.event === 'compact_done'),
    );
    expect(tp.pod.controller.history.map((i) => i.type)).toEqual(['message', 'tool_call']);
    ended = runEnded(c);
    await c.request({ method: 'resume' });
    expect(await ended).toMatchObject({ data: { result: 'finished' } });
    expect(
      tp.pod.controller.history.map((i) => (i.type === 'message' ? i.content[0].text.split('\n')[0] : i.type)),
    ).toEqual(['[Compacted context summary]', 'tool_call', 'tool_result', 'after']);
    expect(readSession(tp.pod.runtime.session.file).history).toEqual(tp.pod.controller.history);
    await c.close();
  }, 20_000);

  it('a strategy that ignores its signal cannot hold the pod: cancel still ends the compaction', async () => {
    tp = await startTestPod(
      scripted([{ text: 'hello' }], {}, [...defaultPlugins({ exclude: ['yoi:compact-summary'] }), stuckStrategy()]),
    );
    const c = await tp.connect();
    await run(c, 'hi');
    const failed = c.waitFor((e) => e.event === 'compact_failed');
    const started = c.waitFor((e) => e.event === 'compact_start');
    await c.request({ method: 'compact' });
    await started;
    await c.request({ method: 'cancel' });
    expect(await failed).toMatchObject({ data: { error: 'aborted: cancelled by the user' } });
    await c.close();
  });

  it('stopping the pod during a compaction ends it with compact_failed before shutdown', async () => {
    tp = await startTestPod(scripted([{ text: 'hello' }, { text: 'SUMMARY', delay_ms: 10_000 }], {}));
    const c = await tp.connect();
    const events = recorder(c);
    await run(c, 'hi');
    const started = c.waitFor((e) => e.event === 'compact_start');
    await c.request({ method: 'compact' });
    await started;
    await tp.stop();
    tp = undefined;
    await c.closed;
    const tail = events.map((e) => e.event).filter((n) => n.startsWith('compact_') || n === 'shutdown');
    expect(tail).toEqual(['compact_start', 'compact_failed', 'shutdown']);
    expect(events.find((e) => e.event === 'compact_failed')).toMatchObject({
      data: { error: 'aborted: the pod is stopping' },
    });
  });
});
