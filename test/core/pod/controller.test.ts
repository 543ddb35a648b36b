import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readSession } from '../../../core/session/readSession.js';
import { UnknownSegment, type Event } from '../../../core/protocol/index.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { RawClient } from '../../support/rawClient.js';
import {
  recorder,
  runEnded,
  startTestPod,
  text,
  until,
  type TestPod,
  childReporter,
} from '../../support/startTestPod.js';
import { throwingResolver, waitCalls, waitTool } from '../../support/testPlugins.js';

let tp: TestPod | undefined;
beforeEach(() => {
  waitCalls.length = 0;
});
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

const scripted = (script: unknown[], extra: Record<string, unknown> = {}) => ({
  files: { 's.json': JSON.stringify(script) },
  config: { model: { provider: 'scripted', script: 's.json' }, ...extra },
  plugins: [...defaultPlugins(), waitTool(), throwingResolver()],
});
const messages = (tp: TestPod) =>
  tp.pod.controller.history.map((i) =>
    i.type === 'message'
      ? `${i.role}: ${i.content[0].text}`
      : i.type === 'tool_call'
        ? `call ${i.name}`
        : `result ${i.summary}`,
  );
const statusChanges = (events: Event[]) =>
  events.filter((e) => e.event === 'status').map((e) => e.event === 'status' && e.data.status);

describe('tool loop', () => {
  it('runs tool calls, feeds results back and loops until a reply without tools', async () => {
    tp = await startTestPod(
      scripted([
        {
          text: 'let me wait',
          tool_calls: [
            { name: 'Wait', arguments: { ms: 1 } },
            { name: 'Nope', arguments: {} },
          ],
        },
        { text: 'done' },
      ]),
    );
    const c = await tp.connect();
    const events = recorder(c);
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await ended;
    const results = events.filter((e) => e.event === 'tool_result').map((e) => e.data);
    expect(results).toEqual([
      { id: 'call_1', summary: 'waited 1 ms', output: 'done after 1 ms', is_error: false },
      { id: 'call_2', summary: "Tool 'Nope' not found", is_error: true },
    ]);
    expect(messages(tp)).toEqual([
      'user: go',
      'assistant: let me wait',
      'call Wait',
      'call Nope',
      'result waited 1 ms',
      "result Tool 'Nope' not found",
      'assistant: done',
    ]);
    const names = events.map((e) => e.event);
    expect(names.indexOf('turn_end')).toBeLessThan(names.indexOf('tool_result'));
    await c.close();
  });

  it('stops at maxTurns tool rounds per run with limit_reached, and the next run gets its own budget', async () => {
    const loop = { tool_calls: [{ name: 'Wait', arguments: { ms: 0 } }] };
    tp = await startTestPod(scripted([loop, loop, loop, { text: 'a' }, loop, loop], { maxTurns: 2 }));
    const c = await tp.connect();
    let ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('1')] } });
    expect(await ended).toMatchObject({ data: { result: 'limit_reached' } });
    ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('2')] } });
    expect(await ended).toMatchObject({ data: { result: 'finished' } });
    await c.close();
  });
});

describe('pause, resume, cancel', () => {
  it('pause during a tool leaves the call open; resume runs it and continues', async () => {
    tp = await startTestPod(scripted([{ tool_calls: [{ name: 'Wait', arguments: { ms: 5000 } }] }, { text: 'after' }]));
    const c = await tp.connect();
    const events = recorder(c);
    const paused = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await until(events, (e) => e.event === 'tool_call_done');
    await new Promise((r) => setTimeout(r, 50));
    await c.request({ method: 'pause' });
    expect(await paused).toMatchObject({ event: 'run_end', data: { result: 'paused' } });
    expect(tp.pod.status).toBe('paused');
    expect(waitCalls).toEqual([{ ms: 5000, finished: false }]);
    await c.request({ method: 'pause' }); // idempotent while paused
    waitCalls.length = 0;
    // Make the re-executed call quick: rewrite its arguments in history is not allowed; instead cancel-free path:
    const resumed = runEnded(c, 15_000);
    await c.request({ method: 'resume' });
    expect(await resumed).toMatchObject({ data: { result: 'finished' } });
    expect(waitCalls).toEqual([{ ms: 5000, finished: true }]);
    expect(messages(tp)).toEqual(['user: go', 'call Wait', 'result waited 5000 ms', 'assistant: after']);
    // `status: idle` follows `run_end`, in the same write or (after a run-end collection) the next.
    await until(events, (e) => e.event === 'status' && e.data.status === 'idle');
    expect(statusChanges(events)).toEqual(['running', 'paused', 'running', 'idle']);
    await c.close();
  }, 20_000);

  it('cancel ends the run with run_end{cancelled} (v2) and error+run_end{finished} (v1), closing open calls', async () => {
    tp = await startTestPod(scripted([{ tool_calls: [{ name: 'Wait', arguments: { ms: 5000 } }] }]));
    const c = await tp.connect();
    const events = recorder(c);
    const v1 = await RawClient.connect(tp.socket);
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await until(events, (e) => e.event === 'tool_call_done');
    await c.request({ method: 'cancel' });
    expect(await ended).toMatchObject({ event: 'run_end', data: { result: 'cancelled' } });
    await v1.until((e) => e.event === 'run_end');
    const tail = v1.lines.slice(-2);
    expect(tail).toEqual([
      '{"event":"error","data":{"code":"internal","message":"Cancelled"}}',
      '{"event":"run_end","data":{"result":"finished"}}',
    ]);
    expect(v1.lines.some((l) => /"seq"|"status"|"ack"|"request_id"/.test(l))).toBe(false);
    expect(messages(tp)).toEqual(['user: go', 'call Wait', 'result [Cancelled by user]']);
    const logged = readSession(tp.pod.runtime.session.file).history;
    expect(logged).toEqual(tp.pod.controller.history);
    expect(tp.pod.status).toBe('idle');
    v1.destroy();
    await c.close();
  });

  it('run while paused closes the open call, notes the interruption, then takes the new input', async () => {
    tp = await startTestPod(scripted([{ tool_calls: [{ name: 'Wait', arguments: { ms: 5000 } }] }, { text: 'ok' }]));
    const c = await tp.connect();
    const events = recorder(c);
    let ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('first')] } });
    await until(events, (e) => e.event === 'tool_call_done');
    await c.request({ method: 'pause' });
    await ended;
    ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('second')] } });
    await ended;
    expect(messages(tp)).toEqual([
      'user: first',
      'call Wait',
      'result [Interrupted by user]',
      "system: [The previous turn was interrupted by the user. The user's next request follows.]",
      'user: second',
      'assistant: ok',
    ]);
    expect(readSession(tp.pod.runtime.session.file).history).toEqual(tp.pod.controller.history);
    await c.close();
  });
});

describe('notifications and input', () => {
  it('notify when idle commits the notification and starts a run; it is in the log', async () => {
    tp = await startTestPod();
    const c = await tp.connect();
    const events = recorder(c);
    const ended = runEnded(c);
    await c.request({ method: 'notify', params: { message: 'build finished' } });
    await ended;
    expect(events.some((e) => e.event === 'user_message')).toBe(false);
    const note = tp.pod.controller.history[0];
    expect(note.type === 'message' && note.role === 'system' && note.content[0].text).toMatch(
      /^\[Notification\]\nbuild finished\n\nThis is a notification, not a blocking request/,
    );
    expect(readSession(tp.pod.runtime.session.file).history[0]).toEqual(note);
    await c.close();
  });

  it('notify while running is committed before the next LLM request', async () => {
    tp = await startTestPod(scripted([{ tool_calls: [{ name: 'Wait', arguments: { ms: 300 } }] }, { text: 'seen' }]));
    const c = await tp.connect();
    const events = recorder(c);
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await until(events, (e) => e.event === 'tool_call_done');
    await c.request({ method: 'notify', params: { message: 'ping' } });
    await ended;
    const got = messages(tp);
    expect(got.filter((m) => !m.startsWith('system:'))).toEqual([
      'user: go',
      'call Wait',
      'result waited 300 ms',
      'assistant: seen',
    ]);
    expect(got[3]).toMatch(/^system: \[Notification\]\nping\n/);
    await c.close();
  });

  it('broadcasts each notification to v2 clients as it arrives (a notify, a child report), never to v1 clients', async () => {
    tp = await startTestPod(scripted([{ tool_calls: [{ name: 'Wait', arguments: { ms: 300 } }] }, { text: 'seen' }]));
    const c = await tp.connect();
    const events = recorder(c);
    const v1 = await RawClient.connect(tp.socket);
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await until(events, (e) => e.event === 'tool_call_done');
    await c.request({ method: 'notify', params: { message: 'ping' } });
    // Live: the event comes while the tool still runs, before the notification reaches the model.
    const live = await until(events, (e) => e.event === 'notification');
    expect(live).toMatchObject({ event: 'notification', data: { source: 'notify', message: 'ping' } });
    expect(events.some((e) => e.event === 'tool_result')).toBe(false);
    const kid = await childReporter(tp, 'kid');
    await kid.request({ method: 'pod_event', params: { kind: 'turn_ended', pod_name: 'kid' } });
    await kid.close();
    await until(events, (e) => e.event === 'notification' && e.data.source === 'pod_event');
    await ended;
    expect(events.filter((e) => e.event === 'notification').map((e) => e.event === 'notification' && e.data)).toEqual([
      { source: 'notify', message: 'ping' },
      { source: 'pod_event', message: 'Pod `kid` finished a turn.' },
    ]);
    await until(v1.events, (e) => e.event === 'run_end');
    expect(v1.lines.some((l) => l.includes('"notification"'))).toBe(false);
    v1.destroy();
    await c.close();
  });

  it('an unknown kind and a throwing resolver become placeholders plus alerts; the run still happens', async () => {
    tp = await startTestPod(scripted([]));
    const c = await tp.connect();
    const events = recorder(c);
    const ended = runEnded(c);
    await c.request({
      method: 'run',
      params: { input: [text('see '), new UnknownSegment({ kind: 'image', url: 'x' }), { kind: 'boom' } as never] },
    });
    await ended;
    const alerts = events.filter((e) => e.event === 'alert').map((e) => e.event === 'alert' && e.data.message);
    expect(alerts).toEqual([
      'image segment (x) was not resolved (no plugin handles segments of kind "image"); the model sees a placeholder',
      expect.stringMatching(
        /^boom segment was not resolved \(plugin test:boom failed in resolveSegment\(boom\): kaboom\)/,
      ),
    ]);
    expect(messages(tp)[0]).toBe('user: see [unknown input: kind=image][unresolved boom: boom]');
    const um = events.find((e) => e.event === 'user_message');
    expect(JSON.stringify(um)).toContain('{"kind":"image","url":"x"}');
    const logged = readSession(tp.pod.runtime.session.file);
    expect(logged.userInputs[0].segments[1]).toBeInstanceOf(UnknownSegment);
    await c.close();
  });

  it('a run of 10,000 unknown segments gives 20 alerts, the last counting the rest; the model sees every placeholder', async () => {
    tp = await startTestPod(scripted([]));
    const c = await tp.connect();
    const events = recorder(c);
    const ended = runEnded(c, 30_000);
    const input = Array.from({ length: 10_000 }, (_, i) => new UnknownSegment({ kind: 'image', url: `u${i}` }));
    await c.request({ method: 'run', params: { input } });
    expect((await ended).event).toBe('run_end');
    const alerts = events.filter((e) => e.event === 'alert').map((e) => e.event === 'alert' && e.data.message);
    expect(alerts).toHaveLength(20);
    expect(alerts[0]).toBe(
      'image segment (u0) was not resolved (no plugin handles segments of kind "image"); the model sees a placeholder',
    );
    expect(alerts[19]).toBe("… and 9981 more alerts about this run's input, not shown one by one");
    expect(messages(tp)[0]).toBe(`user: ${'[unknown input: kind=image]'.repeat(10_000)}`);
    await c.close();
  });

  it('a provider error mid-stream ends the run with one error; the next run works', async () => {
    tp = await startTestPod(scripted([{ chunks: ['par', 'tial'], error: 'upstream 500' }, { text: 'fine' }]));
    const c = await tp.connect();
    const events = recorder(c);
    let ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('a')] } });
    expect(await ended).toMatchObject({ event: 'error', data: { code: 'provider_error', message: 'upstream 500' } });
    expect(events.filter((e) => e.event === 'run_end')).toEqual([]);
    ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('b')] } });
    expect(await ended).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    expect(messages(tp)).toEqual(['user: a', 'user: b', 'assistant: fine']);
    await c.close();
  });

  it('alerts are replayed to a client that connects later', async () => {
    tp = await startTestPod(scripted([]));
    const c = await tp.connect();
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [{ kind: 'file_ref', path: 'nope' }] } });
    await ended;
    const late = await RawClient.connect(tp.socket);
    const alert = await late.until((e) => e.event === 'alert');
    expect(alert.event === 'alert' && alert.data.message).toContain('file_ref');
    late.destroy();
    await c.close();
  });
});
