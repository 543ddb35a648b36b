import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { RawClient } from '../../support/rawClient.js';
import type { TestPod } from '../../support/startTestPod.js';
import { Watch, call, reply, scriptedPod, startRun } from './permissionsHarness.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

const ASK_READ = { rules: [{ tool: 'Read', action: 'ask' }] };

describe('an ask answered by another client', () => {
  it('goes to every v2 client; the first valid reply wins, every client hears how it ended, later replies are errors', async () => {
    tp = await scriptedPod([call('Read', { file_path: 'a.txt' }), { text: 'read it' }], {
      permissions: ASK_READ,
      files: { 'a.txt': 'alpha\n' },
    });
    const runner = await Watch.on(tp);
    const approver = await Watch.on(tp);
    const { ended } = await startRun(runner.client, 'read a.txt');
    const asked = await approver.request();
    expect(asked).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      tool: 'Read',
      args: { file_path: 'a.txt' },
      summary: 'Read a.txt',
      options: ['allow_once', 'allow_always', 'reject_once', 'reject_always'],
      deadline_ms: expect.any(Number),
      default: 'reject_once',
      pod: 'test',
      expires_at: expect.any(Number),
    });
    expect(asked.deadline_ms).toBeGreaterThan(590_000);
    expect(await runner.request()).toEqual(asked);
    // The run waits: no result before the answer.
    expect(runner.results()).toEqual([]);

    await expect(reply(approver.client, asked.id, 'allow_once')).resolves.toMatchObject({
      event: 'ack',
      data: { method: 'permission_reply' },
    });
    await expect(reply(runner.client, asked.id, 'reject_once')).rejects.toThrow(
      `invalid_request: permission request ${asked.id} was already resolved (allow_once by test/1)`,
    );
    for (const w of [runner, approver])
      expect(await w.resolved(asked.id)).toEqual({ id: asked.id, decision: 'allow_once', by: 'test/1', pod: 'test' });
    expect(await ended).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    expect(runner.results()).toEqual([
      expect.objectContaining({ is_error: false, output: expect.stringContaining('alpha') }),
    ]);
    // Nothing is left pending.
    await expect(approver.client.requestExtension('permission_list')).resolves.toMatchObject({
      data: { requests: [] },
    });
  });

  it('a rejection reaches the model with its message; allowed calls in the same reply run', async () => {
    tp = await scriptedPod(
      [
        {
          tool_calls: [
            { name: 'Read', arguments: { file_path: 'a.txt' } },
            { name: 'Glob', arguments: { pattern: '*.txt' } },
          ],
        },
      ],
      { permissions: ASK_READ, files: { 'a.txt': 'alpha\n' } },
    );
    const w = await Watch.on(tp);
    const { ended } = await startRun(w.client, 'go');
    const asked = await w.request();
    await reply(w.client, asked.id, 'reject_once', { message: 'use Grep instead' });
    await ended;
    const [read, glob] = w.results();
    expect(read).toMatchObject({
      is_error: true,
      summary: 'Refused: the user rejected this Read call: use Grep instead',
    });
    expect(glob).toMatchObject({ is_error: false });
    // The echo answer after the script shows what the model was given.
    const said = w.events.flatMap((e) => (e.event === 'text_delta' ? [e.data.text] : [])).join('');
    expect(said).toContain('Refused: the user rejected this Read call: use Grep instead');
    expect(fs.readFileSync(path.join(tp.dir, 'a.txt'), 'utf8')).toBe('alpha\n');
  });

  it('bad replies are one-line errors to the sender and lose nothing: the ask stays answerable, the pod keeps running', async () => {
    tp = await scriptedPod([call('Read', { file_path: 'x' })], { permissions: ASK_READ });
    const w = await Watch.on(tp);
    const { ended } = await startRun(w.client, 'go');
    const asked = await w.request();
    await expect(reply(w.client, 'deadbeef', 'allow_once')).rejects.toThrow(
      'invalid_request: no pending permission request deadbeef',
    );
    await expect(reply(w.client, asked.id, 'allow_forever')).rejects.toThrow(
      /^invalid_request: invalid params for `permission_reply`: decision/,
    );
    await expect(w.client.requestExtension('permission_reply', { decision: 'allow_once' })).rejects.toThrow(
      /invalid params for `permission_reply`: id/,
    );
    await expect(reply(w.client, 'NOT AN ID', 'allow_once')).rejects.toThrow(/id: not a permission request id/);
    await expect(reply(w.client, asked.id, 'reject_once', { message: 'x'.repeat(5000) })).rejects.toThrow(/message/);
    const raw = await RawClient.connect(tp.socket);
    raw.write(
      '{"method":"permission_reply","request_id":"v1","params":{"id":"' + asked.id + '","decision":"allow_once"}}\n',
    );
    expect(await raw.until((e) => e.event === 'error')).toMatchObject({
      data: { code: 'internal', message: 'method `permission_reply` needs protocol version 2: send hello first' },
    });
    raw.destroy();
    await expect(w.client.request({ method: 'get_history' })).resolves.toMatchObject({ event: 'history' });
    await reply(w.client, asked.id, 'allow_once');
    expect(await ended).toMatchObject({ data: { result: 'finished' } });
  });
});
