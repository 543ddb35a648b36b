import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient, type UnknownEvent } from '../../client/PodClient.js';
import { makeProject } from '../support/startTestPod.js';
import { startPodProcess, yoi, yoiAsync } from '../support/runCli.js';
import { describeSandboxed } from '../plugins/bash/bashHarness.js';

// `yoi send`, `yoi approve`, `yoi deny` and `yoi asks` against a real `yoi pod start` process
// on the scripted provider: the asks a policy raises, shown and answered from the command line.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Call = { name: string; arguments: Record<string, unknown> };

async function podWith(calls: Call[], permissions: Record<string, unknown>, files: Record<string, string> = {}) {
  const config = { name: 'asker', model: { provider: 'scripted', script: 's.json' }, permissions };
  const dir = makeProject({
    's.json': JSON.stringify([{ tool_calls: calls }]),
    'yoi.config.json': JSON.stringify(config),
    ...files,
  });
  const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
  const pod = await startPodProcess([], { cwd: dir, env });
  cleanups.push(async () => {
    pod.child.kill('SIGKILL');
    await pod.exited;
  });
  return { dir, env, pod };
}

/** A second client that hands over each permission_request it hears. */
async function watcher(socketPath: string) {
  const client = await PodClient.connect({ socketPath, protocol: 2, clientName: 'test/watcher' });
  cleanups.push(() => client.close());
  const seen: UnknownEvent[] = [];
  const waiters: (() => void)[] = [];
  client.onUnknownEvent((e) => {
    seen.push(e);
    for (const w of waiters.splice(0)) w();
  });
  const next = async (event: string, from = 0): Promise<{ id: string } & Record<string, unknown>> => {
    for (;;) {
      const hit = seen.slice(from).find((e) => e.event === event);
      if (hit) return hit.data as { id: string };
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { client, seen, next };
}

describeSandboxed('Bash through yoi send, the ask answered by a second client', () => {
  it('send prints the ask with its id and how to answer; yoi approve from another process lets the command run', async () => {
    const { dir, env, pod } = await podWith(
      [{ name: 'Bash', arguments: { command: 'echo approved > out.txt; cat out.txt' } }],
      {},
    );
    const w = await watcher(pod.socket);
    const sent = yoiAsync(['send', 'build it'], { cwd: dir, env, timeoutMs: 120_000 });
    const ask = await w.next('permission_request');
    expect(ask).toMatchObject({
      tool: 'Bash',
      pod: 'asker',
      default: 'reject_once',
      options: ['allow_once', 'allow_always', 'reject_once', 'reject_always'],
    });

    const listed = yoi(['asks', '--json'], { cwd: dir, env });
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ id: ask.id, tool: 'Bash', args: { command: 'echo approved > out.txt; cat out.txt' } }),
    ]);

    const approved = yoi(['approve', ask.id], { cwd: dir, env });
    expect(approved.stderr).toBe('');
    expect(approved.stdout).toBe(`allow_once ${ask.id} (asker)\n`);
    const r = await sent;
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(
      `[permission ${ask.id}] Bash: echo approved > out.txt; cat out.txt — answer: yoi approve ${ask.id} --pod asker | yoi deny ${ask.id} --pod asker`,
    );
    expect(r.stderr).toContain(`[permission ${ask.id}] allow_once (yoi-cli)`);
    expect(r.stdout).toContain('✓ Bash');
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('approved\n');
    expect(JSON.parse(yoi(['asks', '--json'], { cwd: dir, env }).stdout)).toEqual([]);
  }, 240_000);
});

describe('asks from the command line', () => {
  it('headless yoi send with nobody answering ends at the deadline: the default rejects, the run finishes', async () => {
    const { dir, env } = await podWith(
      [{ name: 'Read', arguments: { file_path: 'a.txt' } }],
      { rules: [{ tool: 'Read', action: 'ask' }], deadlineMs: 1500 },
      { 'a.txt': 'secret\n' },
    );
    const r = await yoiAsync(['send', 'read a.txt'], { cwd: dir, env, timeoutMs: 120_000 });
    expect(r.status).toBe(0);
    const id = /\[permission ([0-9a-f]{8})\] Read a\.txt /.exec(r.stderr)?.[1];
    expect(id).toBeDefined();
    expect(r.stderr).toMatch(/\(reject_once in [12]s\)/);
    expect(r.stderr).toContain(`[permission ${id}] reject_once (timeout)`);
    expect(r.stdout).toContain('✗ Read a.txt');
    expect(r.stdout).not.toContain('secret');
  }, 240_000);

  it('yoi asks lists the pending ask; yoi deny --message refuses it with the reason; a second answer is a one-line error', async () => {
    const { dir, env, pod } = await podWith(
      [{ name: 'Read', arguments: { file_path: 'a.txt' } }],
      { rules: [{ tool: 'Read', action: 'ask' }] },
      { 'a.txt': 'secret\n' },
    );
    const w = await watcher(pod.socket);
    const sent = yoiAsync(['send', 'read a.txt'], { cwd: dir, env, timeoutMs: 120_000 });
    const ask = await w.next('permission_request');

    const table = yoi(['asks'], { cwd: dir, env });
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(
      new RegExp(`^ID +POD +LEFT +DEFAULT +CALL\\n${ask.id}  asker  \\d+m \\d\\ds  reject_once  Read a\\.txt\\n`),
    );
    expect(table.stdout).toContain(
      'answer with: yoi approve ID [--always] --pod asker | yoi deny ID [--always] [--message M] --pod asker',
    );

    const denied = yoi(['deny', ask.id, '--message', 'not that file'], { cwd: dir, env });
    expect(denied.stdout).toBe(`reject_once ${ask.id} (asker)\n`);
    const r = await sent;
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`[permission ${ask.id}] reject_once (yoi-cli): not that file`);
    // The echo reply after the script shows what the model read: the rejection and its message.
    expect(r.stdout).toContain('not that file');
    expect(r.stdout).not.toContain('secret');

    const again = yoi(['approve', ask.id], { cwd: dir, env });
    expect(again.status).not.toBe(0);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toContain(`permission request ${ask.id} was already resolved (reject_once by yoi-cli)`);
    expect(yoi(['asks'], { cwd: dir, env }).stdout).toBe('no pending permission requests (pod asker)\n');
    // The pod kept running.
    expect(yoi(['pod', 'status'], { cwd: dir, env }).status).toBe(0);
  }, 240_000);
});
