import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { listSessions, readSession } from '../../core/session/readSession.js';
import { makeProject, recorder, runEnded, text, until } from '../support/startTestPod.js';
import { startPodProcess, yoi, yoiAsync } from '../support/runCli.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const big = { input_tokens: 5000, output_tokens: 5 };

/** A project on the scripted provider that compacts after every run above 1000 tokens. */
function project(script: unknown[]) {
  const dir = makeProject({
    's.json': JSON.stringify(script),
    'yoi.config.json': JSON.stringify({
      model: { provider: 'scripted', script: 's.json' },
      systemPrompt: 'You help.',
      compaction: { threshold: 1000 },
    }),
  });
  const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
  return { dir, env, sessions: path.join(dir, '.yoi', 'sessions') };
}

async function start(p: ReturnType<typeof project>, args: string[] = []) {
  const pod = await startPodProcess(args, { cwd: p.dir, env: p.env });
  cleanups.push(() => pod.child.kill('SIGKILL'));
  const client = await PodClient.connect({ socketPath: pod.socket, clientName: 'test/1' });
  cleanups.push(() => void client.close());
  return { pod, client };
}

async function historyOf(client: PodClient) {
  const reply = await client.request({ method: 'get_history' });
  return reply.event === 'history' ? reply.data.items : [];
}

describe('compaction in a real pod process', () => {
  it('SIGKILL during a compaction leaves the old session intact: --resume restores it', async () => {
    const p = project([
      { text: 'hello', usage: big },
      { text: 'SUMMARY', delay_ms: 30_000 },
    ]);
    const { pod, client } = await start(p);
    const events = recorder(client);
    const ended = runEnded(client);
    await client.request({ method: 'run', params: { input: [text('hi')] } });
    await ended;
    await until(events, (e) => e.event === 'compact_start');
    const before = await historyOf(client);
    const oldId = client.welcome!.session_id;
    pod.child.kill('SIGKILL');
    await pod.exited;
    expect(listSessions(p.sessions).map((f) => path.basename(f))).toEqual([`${oldId}.jsonl`]);

    const again = await start(p, ['--resume']);
    expect(again.client.welcome!.session_id).toBe(oldId);
    expect(await historyOf(again.client)).toEqual(before);
    expect(readSession(listSessions(p.sessions)[0]).interrupted).toBe(false);
  });

  it('SIGKILL after a compaction: --resume restores the new session, complete; history --chain shows both', async () => {
    const p = project([{ text: 'hello', usage: big }, { text: 'SUMMARY of hi' }]);
    const { pod, client } = await start(p);
    const events = recorder(client);
    const ended = runEnded(client);
    await client.request({ method: 'run', params: { input: [text('hi')] } });
    await ended;
    const done = await until(events, (e) => e.event === 'compact_done');
    const newId = done.event === 'compact_done' ? done.data.new_session_id : '';
    await until(events, (e) => e.event === 'status' && e.data.session_id === newId);
    const compacted = await historyOf(client);
    expect(JSON.stringify(compacted)).toContain('SUMMARY of hi');
    pod.child.kill('SIGKILL');
    await pod.exited;

    const again = await start(p, ['--resume']);
    expect(again.client.welcome!.session_id).toBe(newId);
    expect(await historyOf(again.client)).toEqual(compacted);

    const r = await yoiAsync(['history', '--chain'], { cwd: p.dir, env: p.env });
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')).toEqual([
      expect.stringMatching(/^── session [0-9a-f-]{36} ──$/),
      'user: hi',
      'assistant: hello',
      expect.stringMatching(
        new RegExp(
          `^── compacted at \\d{4}-.*Z into session ${newId} \\(1 recent item\\(s\\) kept, not repeated\\) ──$`,
        ),
      ),
      'system: [Compacted context summary]',
      '',
      'SUMMARY of hi',
      '',
    ]);
    const json = JSON.parse((await yoiAsync(['history', '--chain', '--json'], { cwd: p.dir, env: p.env })).stdout) as {
      session_id: string;
      compacted_from?: { session_id: string };
    }[];
    expect(json.map((s) => s.session_id)).toEqual([json[1].compacted_from!.session_id, newId]);
    const plain = await yoiAsync(['history'], { cwd: p.dir, env: p.env });
    expect(plain.stdout).toBe('system: [Compacted context summary]\n\nSUMMARY of hi\nassistant: hello\n');
  });

  it('yoi compact compacts an idle pod and reports the new session; a refusal is one line', async () => {
    const p = project([{ text: 'hello' }, { text: 'SUMMARY' }]);
    const { client } = await start(p);
    const r0 = yoi(['compact'], { cwd: p.dir, env: p.env });
    expect(r0.status).toBe(1);
    expect(r0.stderr).toBe('yoi: nothing to compact: the history is empty [YOI_ERR_REQUEST invalid_request]\n');
    const j0 = yoi(['compact', '--json'], { cwd: p.dir, env: p.env });
    expect(j0.status).toBe(1);
    expect(j0.stderr).toBe('');
    expect(JSON.parse(j0.stdout)).toEqual({
      error: {
        code: 'YOI_ERR_REQUEST',
        pod_code: 'invalid_request',
        message: 'nothing to compact: the history is empty',
        exit_code: 1,
      },
    });
    const ended = runEnded(client);
    await client.request({ method: 'run', params: { input: [text('hi')] } });
    await ended;
    const before = client.welcome!.session_id;
    const r = await yoiAsync(['compact', '--json'], { cwd: p.dir, env: p.env });
    expect(r.stderr).toBe('');
    // The command waited for the result: the new session exists when it returns.
    const result = JSON.parse(r.stdout) as { pod: string; result: string; from_session: string; session_id: string };
    expect(result).toEqual({
      pod: 'default',
      result: 'compacted',
      from_session: before,
      session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(
      fs
        .readdirSync(p.sessions)
        .filter((f) => f.endsWith('.jsonl'))
        .sort(),
    ).toEqual([`${before}.jsonl`, `${result.session_id}.jsonl`].sort());
  });
});
