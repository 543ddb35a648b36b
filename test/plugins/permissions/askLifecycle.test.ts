import { afterEach, describe, expect, it } from '@jest/globals';
import { readSession } from '../../../core/session/readSession.js';
import { listSessions } from '../../../core/session/readSession.js';
import { RawClient } from '../../support/rawClient.js';
import type { TestPod } from '../../support/startTestPod.js';
import { Watch, call, reply, scriptedPod, startRun } from './permissionsHarness.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

const ASK_READ = { rules: [{ tool: 'Read', action: 'ask' }] };
const readA = call('Read', { file_path: 'a.txt' });

describe('deadlines', () => {
  it('an unanswered ask gets its default at the deadline: permission_resolved by timeout, the model told why', async () => {
    tp = await scriptedPod([readA], { permissions: { ...ASK_READ, deadlineMs: 300 }, files: { 'a.txt': 'a' } });
    const w = await Watch.on(tp);
    const { ended } = await startRun(w.client, 'go');
    const asked = await w.request();
    expect(asked).toMatchObject({ default: 'reject_once', deadline_ms: expect.any(Number) });
    expect(asked.deadline_ms).toBeLessThanOrEqual(300);
    expect(await w.resolved(asked.id)).toEqual({ id: asked.id, decision: 'reject_once', by: 'timeout', pod: 'test' });
    expect(await ended).toMatchObject({ data: { result: 'finished' } });
    expect(w.results()[0]).toMatchObject({
      is_error: true,
      summary: 'Refused: no answer to the permission request within 0.3 s; rejected by default',
    });
    await expect(reply(w.client, asked.id, 'allow_once')).rejects.toThrow(
      `permission request ${asked.id} was already resolved (reject_once by timeout)`,
    );
  });

  it('onDeadline: allow_once lets the call run when nobody answers', async () => {
    tp = await scriptedPod([readA], {
      permissions: { ...ASK_READ, deadlineMs: 200, onDeadline: 'allow_once' },
      files: { 'a.txt': 'alpha' },
    });
    const w = await Watch.on(tp);
    const { ended } = await startRun(w.client, 'go');
    const asked = await w.request();
    expect(asked.default).toBe('allow_once');
    expect(await w.resolved(asked.id)).toMatchObject({ decision: 'allow_once', by: 'timeout' });
    await ended;
    expect(w.results()[0]).toMatchObject({ is_error: false, output: expect.stringContaining('alpha') });
  });
});

describe('clients that come later', () => {
  it('get the pending asks in their welcome, as events after it, and from permission_list; v1 clients get an alert saying how to answer', async () => {
    tp = await scriptedPod([readA], { permissions: ASK_READ, files: { 'a.txt': 'a' } });
    const old = await RawClient.connect(tp.socket); // v1: never says hello
    const w = await Watch.on(tp);
    const { ended } = await startRun(w.client, 'go');
    const asked = await w.request();
    const alert = await old.until((e) => e.event === 'alert' && e.data.message.startsWith('permission request'));
    expect(alert).toMatchObject({
      data: {
        level: 'warn',
        message: `permission request ${asked.id}: Read a.txt — answer with \`yoi approve ${asked.id} --pod test\` or \`yoi deny ${asked.id} --pod test\` (reject_once in 10 minutes)`,
      },
    });
    expect(old.lines.some((l) => l.includes('"permission_request"'))).toBe(false);

    const late = await Watch.on(tp);
    expect((late.client.welcome as Record<string, unknown>).permission_requests).toEqual([
      { ...asked, deadline_ms: expect.any(Number) },
    ]);
    expect(await late.request()).toMatchObject({ id: asked.id, tool: 'Read' });
    const listed = await late.client.requestExtension('permission_list');
    expect(listed).toMatchObject({
      event: 'permission_list',
      data: { requests: [{ id: asked.id, summary: 'Read a.txt' }] },
    });

    await reply(late.client, asked.id, 'allow_once');
    expect(
      await old.until((e) => e.event === 'alert' && e.data.message.includes(`${asked.id}: allow_once`)),
    ).toMatchObject({ data: { message: `permission request ${asked.id}: allow_once (test/1)` } });
    await ended;
    old.destroy();
  });
});

describe('cancel and pause', () => {
  it('cancel resolves a pending ask as rejected (by cancel) and the run ends cancelled', async () => {
    tp = await scriptedPod([readA], { permissions: ASK_READ, files: { 'a.txt': 'a' } });
    const w = await Watch.on(tp);
    const { ended } = await startRun(w.client, 'go');
    const asked = await w.request();
    await w.client.request({ method: 'cancel' });
    expect(await w.resolved(asked.id)).toEqual({ id: asked.id, decision: 'reject_once', by: 'cancel', pod: 'test' });
    expect(await ended).toMatchObject({ data: { result: 'cancelled' } });
    const closed = tp.pod.controller.history.find((i) => i.type === 'tool_result');
    expect(closed).toMatchObject({
      is_error: true,
      summary: 'Refused: the run was cancelled while permission for Read was pending',
    });
    await expect(w.client.requestExtension('permission_list')).resolves.toMatchObject({ data: { requests: [] } });
  });

  it('pause resolves it (by pause) and the model is told on resume', async () => {
    tp = await scriptedPod([readA, { text: 'ok' }], { permissions: ASK_READ, files: { 'a.txt': 'a' } });
    const w = await Watch.on(tp);
    const { ended } = await startRun(w.client, 'go');
    const asked = await w.request();
    await w.client.request({ method: 'pause' });
    expect(await w.resolved(asked.id)).toMatchObject({ decision: 'reject_once', by: 'pause' });
    expect(await ended).toMatchObject({ data: { result: 'paused' } });
    const resumed = w.client.waitFor((e) => e.event === 'run_end', 30_000);
    await w.client.request({ method: 'resume' });
    await resumed;
    expect(tp.pod.controller.history.find((i) => i.type === 'tool_result')).toMatchObject({
      summary: 'Refused: the run was paused while permission for Read was pending',
    });
  });
});

describe('restarts', () => {
  it('an ask pending when the pod stops is pending again after --resume; its answer holds for the same call made again', async () => {
    tp = await scriptedPod([readA], { permissions: ASK_READ, files: { 'a.txt': 'alpha' } });
    const dir = tp.dir;
    let w = await Watch.on(tp);
    const { ended } = await startRun(w.client, 'go');
    const asked = await w.request();
    await w.client.close();
    await tp.stop();
    await ended.catch(() => undefined);
    const sessions = listSessions(`${dir}/.yoi/sessions`);
    expect(readSession(sessions[0]).plugins.get('yoi:permissions')).toEqual([expect.objectContaining({ type: 'ask' })]);

    // The same call again after the restart (the script starts over).
    tp = await scriptedPod([readA], { dir, resume: true, permissions: ASK_READ });
    w = await Watch.on(tp);
    expect((w.client.welcome as Record<string, unknown>).permission_requests).toEqual([
      expect.objectContaining({ id: asked.id, tool: 'Read', summary: 'Read a.txt' }),
    ]);
    await reply(w.client, asked.id, 'allow_once');
    expect(await w.resolved(asked.id)).toMatchObject({ decision: 'allow_once', by: 'test/1' });
    const again = await startRun(w.client, 'go on');
    await again.ended;
    expect(w.ext.filter((e) => e.event === 'permission_request')).toHaveLength(1); // the one re-sent on connect: no new ask
    expect(w.results()[0]).toMatchObject({ is_error: false, output: expect.stringContaining('alpha') });
  });
});
