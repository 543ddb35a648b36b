import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient, type UnknownEvent } from '../../../client/PodClient.js';
import { makeProject } from '../../support/startTestPod.js';
import { startPodProcess, yoi } from '../../support/runCli.js';
import { describeSandboxed } from '../bash/bashHarness.js';

// Asks of spawned pods, with real processes: a root pod started by the CLI, a child SpawnPod
// starts, and the child's child. Every Bash call of every pod passes the policy (Bash asks by
// default); the asks travel up to the root, are answered there, and the pod that asked applies
// the answer.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Reply = { text?: string; tool_calls?: { name: string; arguments: Record<string, unknown> }[] };
const call = (name: string, args: Record<string, unknown>): Reply => ({ tool_calls: [{ name, arguments: args }] });

function pidsUnder(run: string): number[] {
  return (fs.existsSync(run) ? fs.readdirSync(run) : []).flatMap((name) => {
    try {
      return [Number(fs.readFileSync(path.join(run, name, 'pid'), 'utf8'))];
    } catch {
      return [];
    }
  });
}

async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeSandboxed('asks of child pods', () => {
  it("a child's and a grandchild's Bash asks reach the root's clients labelled with their pod, are answered there and applied where they were asked", async () => {
    const scripts: Record<string, Reply[]> = {
      root: [
        call('SpawnPod', { name: 'child', task: 'build', scope: [{ target: 'src', permission: 'write' }] }),
        { text: 'root done' },
      ],
      child: [
        call('SpawnPod', {
          name: 'grandchild',
          task: 'deep build',
          scope: [{ target: 'src/deep', permission: 'write' }],
        }),
        call('Bash', { command: 'echo from-child > child.txt', cwd: 'src' }),
        { text: 'child done' },
      ],
      grandchild: [
        call('Bash', { command: 'echo from-grandchild > gc.txt', cwd: 'src/deep' }),
        { text: 'grandchild done' },
      ],
    };
    const files: Record<string, string> = {
      'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 'script.{pod}.json' } }),
      'src/deep/.keep': '',
    };
    for (const [pod, replies] of Object.entries(scripts)) files[`script.${pod}.json`] = JSON.stringify(replies);
    const dir = fs.realpathSync(makeProject(files));
    const run = path.join(dir, 'run');
    const env = { YOI_RUNTIME_DIR: run };
    cleanups.push(() => {
      for (const pid of pidsUnder(run)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
    });
    const root = await startPodProcess(['--name', 'root'], { cwd: dir, env });
    cleanups.push(() => root.child.kill('SIGKILL'));

    const c = await PodClient.connect({ socketPath: root.socket, clientName: 'test/1' });
    cleanups.push(() => c.close());
    const ext: UnknownEvent[] = [];
    c.onUnknownEvent((e) => ext.push(e));
    await c.request({ method: 'run', params: { input: [{ kind: 'text', content: 'organise the work' }] } });

    type Ask = { id: string; pod: string; tool: string; summary: string };
    const asks = await eventually('both asks at the root', () => {
      const found = ext.filter((e) => e.event === 'permission_request').map((e) => e.data as Ask);
      return found.length >= 2 && found;
    }).catch((e: Error) => {
      throw new Error(
        `${e.message}; the root heard ${JSON.stringify(ext.map((x) => x.event))}; its log: ${root.stderr()}`,
      );
    });
    const mine = asks.find((a) => a.pod === 'child')!;
    const deep = asks.find((a) => a.pod === 'grandchild')!;
    expect(mine).toMatchObject({ tool: 'Bash', summary: 'Bash: echo from-child > child.txt' });
    expect(deep).toMatchObject({ tool: 'Bash', summary: 'Bash: echo from-grandchild > gc.txt' });
    // Nothing ran before an answer.
    expect(fs.existsSync(path.join(dir, 'src/child.txt'))).toBe(false);

    // yoi asks at the root lists both with their pods.
    const listed = yoi(['asks', '--pod', 'root'], { cwd: dir, env });
    expect(listed.stdout).toMatch(new RegExp(`${mine.id}  child `));
    expect(listed.stdout).toMatch(new RegExp(`${deep.id}  grandchild `));

    // Answered at the root, from the command line: allow the child's, refuse the grandchild's.
    expect(yoi(['approve', mine.id, '--pod', 'root'], { cwd: dir, env }).stdout).toBe(`allow_once ${mine.id} (root)\n`);
    expect(yoi(['deny', deep.id, '--pod', 'root', '--message', 'not in deep'], { cwd: dir, env }).stdout).toBe(
      `reject_once ${deep.id} (root)\n`,
    );

    await eventually("the child's command to run", () => fs.existsSync(path.join(dir, 'src/child.txt')));
    expect(fs.readFileSync(path.join(dir, 'src/child.txt'), 'utf8')).toBe('from-child\n');
    const resolved = await eventually('both resolutions at the root', () => {
      const found = ext
        .filter((e) => e.event === 'permission_resolved')
        .map((e) => e.data as { id: string; decision: string; by: string; pod: string; message?: string });
      return found.length >= 2 && found;
    });
    expect(resolved).toEqual(
      expect.arrayContaining([
        { id: mine.id, decision: 'allow_once', by: 'yoi-cli', pod: 'child' },
        { id: deep.id, decision: 'reject_once', by: 'yoi-cli', pod: 'grandchild', message: 'not in deep' },
      ]),
    );

    // The grandchild applied the refusal: its model read the message, the file was never written.
    const gc = await PodClient.connect({ socketPath: path.join(run, 'grandchild', 'sock'), clientName: 'test/2' });
    cleanups.push(() => gc.close());
    type Item = { type: string; is_error?: boolean; summary?: string };
    const items = await eventually("the grandchild's tool result", async () => {
      const h = await gc.request({ method: 'get_history' });
      const list = h.event === 'history' ? (h.data.items as Item[]) : [];
      return list.some((i) => i.type === 'tool_result') && list;
    });
    const result = items.find((i) => i.type === 'tool_result')!;
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result)).toContain('not in deep');
    expect(fs.existsSync(path.join(dir, 'src/deep/gc.txt'))).toBe(false);
    expect(yoi(['asks', '--pod', 'root'], { cwd: dir, env }).stdout).toBe(
      'no pending permission requests (pod root)\n',
    );
  }, 240_000);
});
