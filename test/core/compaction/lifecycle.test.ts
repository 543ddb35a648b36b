import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import type { Event } from '../../../core/protocol/index.js';
import { listSessions, readSession } from '../../../core/session/readSession.js';
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

// A short system prompt keeps the first request's context far below the thresholds.
function scripted(script: unknown[], compaction: Record<string, unknown>, plugins = [...defaultPlugins(), waitTool()]) {
  return {
    files: { 's.json': JSON.stringify(script) },
    config: { model: { provider: 'scripted', script: 's.json' }, systemPrompt: 'You help.', compaction },
    plugins,
  };
}

const names = (events: Event[]) => events.map((e) => e.event);
const compactEvents = (events: Event[]) => events.filter((e) => e.event.startsWith('compact_'));
const statuses = (events: Event[]) =>
  events.flatMap((e) => (e.event === 'status' ? [`${e.data.status}:${e.data.session_id}`] : []));
const alerts = (events: Event[]) => events.flatMap((e) => (e.event === 'alert' ? [e.data] : []));
const texts = (tp: TestPod) =>
  tp.pod.controller.history.map((i) =>
    i.type === 'message'
      ? `${i.role}: ${i.content[0].text}`
      : i.type === 'tool_call'
        ? `call ${i.name}`
        : `result ${i.summary}`,
  );
const sessionsDir = (tp: TestPod) => path.join(tp.dir, '.yoi', 'sessions');

async function run(c: Awaited<ReturnType<TestPod['connect']>>, input: string) {
  const ended = runEnded(c);
  await c.request({ method: 'run', params: { input: [text(input)] } });
  return ended;
}

describe('post-run compaction', () => {
  it('rotates the session when a run leaves the context above compaction.threshold; every client sees it', async () => {
    tp = await startTestPod(
      scripted([{ text: 'hello', usage: big }, { text: 'SUMMARY of the greeting' }], { threshold: 1000 }),
    );
    const sender = await tp.connect();
    const other = await tp.connect();
    const v1 = await RawClient.connect(tp.socket);
    const seen = recorder(other);
    const oldId = tp.pod.sessionId;
    const oldFile = tp.pod.runtime.session.file;
    const done = other.waitFor((e) => e.event === 'compact_done');
    await run(sender, 'hi');
    const event = await done;
    const newId = event.event === 'compact_done' ? event.data.new_session_id : '';
    await until(seen, (e) => e.event === 'status' && e.data.session_id === newId);

    // Order: the run ends, then the lifecycle; the status after compact_done names the new session.
    const tail = names(seen).slice(names(seen).indexOf('run_end'));
    expect(tail).toEqual(['run_end', 'status', 'status', 'compact_start', 'compact_done', 'status']);
    expect(statuses(seen).slice(-3)).toEqual([`idle:${oldId}`, `compacting:${oldId}`, `idle:${newId}`]);
    expect(newId).not.toBe(oldId);
    expect(tp.pod.sessionId).toBe(newId);
    // status.json is rewritten asynchronously (a transition never waits on the disk).
    const statusId = () => JSON.parse(fs.readFileSync(tp!.pod.paths.status, 'utf8')).session_id;
    for (let i = 0; i < 100 && statusId() !== newId; i++) await new Promise((r) => setTimeout(r, 10));
    expect(statusId()).toBe(newId);

    // The new session starts with the summary and the kept tail; the old log is as it was.
    expect(texts(tp)).toEqual(['system: [Compacted context summary]\n\nSUMMARY of the greeting', 'assistant: hello']);
    const fresh = readSession(tp.pod.runtime.session.file);
    // A new hash chain, linked to the old one by the hash of the old log's last line.
    const oldLastLine = JSON.parse(fs.readFileSync(oldFile, 'utf8').trimEnd().split('\n').at(-1)!);
    expect(fresh.start.compacted_from).toEqual({
      session_id: oldId,
      at: expect.any(Number),
      at_hash: oldLastLine.hash,
    });
    expect(fresh.chain).toMatchObject({ status: 'intact' });
    expect(JSON.parse(fs.readFileSync(tp.pod.runtime.session.file, 'utf8').split('\n')[0]).prev_hash).toBeNull();
    expect(fresh.history).toEqual(tp.pod.controller.history);
    const old = readSession(oldFile);
    expect(old.chain).toMatchObject({ status: 'intact' });
    expect(old.history.map((i) => i.type === 'message' && i.content[0].text)).toEqual(['hi', 'hello']);
    expect(fs.readFileSync(oldFile, 'utf8').trimEnd().split('\n').at(-1)).toMatch(/"type":"run_end"/);
    expect(listSessions(sessionsDir(tp))).toEqual([tp.pod.runtime.session.file, oldFile]);
    expect(fs.readdirSync(sessionsDir(tp)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // get_history answers from the new session; v1 clients got exactly the v1 shapes.
    const history = await sender.request({ method: 'get_history' });
    expect(history.event === 'history' && history.data.items).toEqual(tp.pod.controller.history);
    await v1.until((e) => e.event === 'compact_done');
    expect(v1.lines.filter((l) => l.includes('compact_'))).toEqual([
      '{"event":"compact_start"}',
      `{"event":"compact_done","data":{"new_session_id":"${newId}"}}`,
    ]);
    expect(v1.lines.some((l) => /"seq"|"status"/.test(l))).toBe(false);
    v1.destroy();
    await sender.close();
    await other.close();
  });

  it('a summary of text cut inside an emoji leaves a history every client can read (a fuzzing case)', async () => {
    // The summary request cuts a long item to 4,000 characters in the middle: after 'x', 2,000
    // UTF-16 units end inside an emoji. The echoed summary (the script is over) carried half of
    // it, and every get_history after that was refused by the clients' decoder, as serde's.
    tp = await startTestPod(scripted([{ text: 'noted', usage: big }], { threshold: 1000, retainedTokens: 0 }));
    const c = await tp.connect();
    const done = c.waitFor((e) => e.event === 'compact_done');
    await run(c, `x${'😀'.repeat(2100)}`);
    await done;
    expect(texts(tp)[0]).toContain('characters cut');
    const raw = await RawClient.connect(tp.socket);
    raw.write('{"method":"get_history"}\n');
    const history = await raw.until((e) => e.event === 'history');
    expect(history.event === 'history' && history.data.items).toEqual(tp.pod.controller.history);
    raw.destroy();
    await c.close();
  });

  it('the summary request shows the model the older conversation and the recently touched files', async () => {
    // After the script, the provider echoes what it was given: the summary shows the request.
    tp = await startTestPod(scripted([{ text: 'noted', usage: big }], { threshold: 1000, retainedTokens: 0 }));
    tp.pod.info.services.files?.touch('/w/src/a.ts', 'write');
    const c = await tp.connect();
    const done = c.waitFor((e) => e.event === 'compact_done');
    await run(c, 'remember the number 42');
    await done;
    const [summary, refs, ...rest] = texts(tp);
    expect(rest).toEqual([]);
    expect(summary).toContain('Summarise the conversation below');
    expect(summary).toContain('[User] remember the number 42');
    expect(summary).toContain('[Assistant] noted');
    expect(summary).toContain('- /w/src/a.ts');
    expect(refs).toBe(
      'system: [Referenced files — touched before compaction, contents not included]\n- /w/src/a.ts\nRead them again if you need their current contents.',
    );
    await c.close();
  });

  it('is off without a threshold, and does not run while the context is under it', async () => {
    tp = await startTestPod(
      scripted(
        [
          { text: 'a', usage: big },
          { text: 'b', usage: { input_tokens: 10, output_tokens: 1 } },
        ],
        { threshold: 100_000 },
      ),
    );
    const c = await tp.connect();
    const events = recorder(c);
    await run(c, 'x');
    await run(c, 'y');
    await tp.pod.runtime.work.settled();
    expect(compactEvents(events)).toEqual([]);
    await c.close();
  });
});

describe('mid-turn compaction', () => {
  it('compacts before a request that would exceed requestThreshold; the turn continues in the new session', async () => {
    tp = await startTestPod(
      scripted(
        [
          { tool_calls: [{ name: 'Wait', arguments: { ms: 1 } }], usage: big },
          { text: 'SUMMARY: waiting' },
          { text: 'continued' },
        ],
        { requestThreshold: 1000 },
      ),
    );
    const c = await tp.connect();
    const events = recorder(c);
    const oldFile = tp.pod.runtime.session.file;
    expect(await run(c, 'go')).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    const order = names(events).filter((n) =>
      ['tool_result', 'compact_start', 'compact_done', 'turn_start', 'run_end'].includes(n),
    );
    expect(order).toEqual(['turn_start', 'tool_result', 'compact_start', 'compact_done', 'turn_start', 'run_end']);
    // `status: idle` follows `run_end`, in the same write or (after a run-end collection) the next.
    await until(events, (e) => e.event === 'status' && e.data.status === 'idle');
    expect(statuses(events).map((s) => s.split(':')[0])).toEqual(['running', 'compacting', 'running', 'idle']);
    expect(texts(tp)).toEqual([
      'system: [Compacted context summary]\n\nSUMMARY: waiting',
      'call Wait',
      'result waited 1 ms',
      'assistant: continued',
    ]);
    // The rest of the run is logged in the new session, which ends it; the old one stops where it was cut.
    const fresh = readSession(tp.pod.runtime.session.file);
    expect(fresh.history).toEqual(tp.pod.controller.history);
    expect(fresh.interrupted).toBe(false);
    expect(readSession(oldFile).history.map((i) => i.type)).toEqual(['message', 'tool_call', 'tool_result']);
    await c.close();
  });

  it("a manual compact during a run is done before the run's next request", async () => {
    tp = await startTestPod(
      scripted(
        [{ tool_calls: [{ name: 'Wait', arguments: { ms: 300 } }] }, { text: 'SUMMARY' }, { text: 'after' }],
        {},
      ),
    );
    const c = await tp.connect();
    const events = recorder(c);
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await until(events, (e) => e.event === 'tool_call_done');
    await expect(c.request({ method: 'compact' })).resolves.toMatchObject({
      event: 'ack',
      data: { method: 'compact' },
    });
    expect(compactEvents(events)).toEqual([]);
    await ended;
    expect(names(events).filter((n) => ['tool_result', 'compact_done', 'turn_start'].includes(n))).toEqual([
      'turn_start',
      'tool_result',
      'compact_done',
      'turn_start',
    ]);
    expect(texts(tp).at(-1)).toBe('assistant: after');
    await c.close();
  });

  it("a manual compact during a run's last request is done right after the run ends", async () => {
    tp = await startTestPod(scripted([{ text: 'slow answer', delay_ms: 300 }, { text: 'SUMMARY' }], {}));
    const c = await tp.connect();
    const events = recorder(c);
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await until(events, (e) => e.event === 'turn_start');
    await c.request({ method: 'compact' });
    await ended;
    await until(events, (e) => e.event === 'compact_done');
    const order = names(events).filter((n) => n === 'run_end' || n.startsWith('compact_'));
    expect(order).toEqual(['run_end', 'compact_start', 'compact_done']);
    await tp.pod.runtime.work.settled();
    expect(tp.pod.status).toBe('idle');
    await c.close();
  });

  it('notifications that arrive during a post-run compaction start their run once it is done', async () => {
    tp = await startTestPod(
      scripted(
        [
          { text: 'hello', usage: big },
          { text: 'SUMMARY', delay_ms: 300 },
        ],
        { threshold: 1000 },
      ),
    );
    const c = await tp.connect();
    const events = recorder(c);
    await run(c, 'hi');
    await until(events, (e) => e.event === 'compact_start');
    const second = c.waitFor((e) => e.event === 'run_end' && events.some((x) => x.event === 'compact_done'));
    await c.request({ method: 'notify', params: { message: 'build finished' } });
    await second;
    const order = names(events).filter((n) => n === 'run_end' || n === 'compact_done' || n === 'turn_start');
    expect(order).toEqual(['turn_start', 'run_end', 'compact_done', 'turn_start', 'run_end']);
    expect(readSession(tp.pod.runtime.session.file).history).toEqual(tp.pod.controller.history);
    expect(JSON.stringify(tp.pod.controller.history)).toContain('build finished');
    await c.close();
  });

  it('a compaction that leaves the context above the threshold is not repeated before the next request', async () => {
    const long = 'word '.repeat(400);
    tp = await startTestPod(
      scripted(
        [
          { tool_calls: [{ name: 'Wait', arguments: { ms: 1 } }], usage: big },
          { text: long },
          { text: 'done', usage: big },
        ],
        { requestThreshold: 50 },
      ),
    );
    const c = await tp.connect();
    const events = recorder(c);
    expect(await run(c, 'go')).toMatchObject({ data: { result: 'finished' } });
    expect(compactEvents(events).map((e) => e.event)).toEqual(['compact_start', 'compact_done']);
    expect(texts(tp).at(-1)).toBe('assistant: done');
    const [alert] = alerts(events);
    expect(alert).toMatchObject({ level: 'error', source: 'compactor' });
    expect(alert.message).toMatch(
      /^mid-run compaction left about \d+ tokens, still above compaction.requestThreshold \(50\)/,
    );
    await c.close();
  });
});
