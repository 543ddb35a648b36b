import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { isPidAlive, isSocketLive } from '../../core/pod/podFiles.js';
import { makeProject } from '../support/startTestPod.js';
import { startPodProcess } from '../support/runCli.js';

/**
 * The pod tree with real processes: a root pod started by the CLI, the children SpawnPod
 * starts (detached `yoi pod start --adopt` processes) and a grandchild, each following its
 * own script (`script.{pod}.json`).
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// A test tool the scripts use to hold the root's run until the test is ready, and a log of the
// reports each pod receives (a report arriving mid-run reaches the history only before the
// run's next LLM request).
const CONFIG = `import fs from 'node:fs';
import path from 'node:path';
import { defaultPlugins, definePlugin, z } from 'yoi';

const eventLog = definePlugin({
  name: 'test:event-log',
  apply(host) {
    for (const kind of ['turn_ended', 'errored', 'shut_down', 'scope_sub_delegated']) {
      host.hooks.podEvent.for(kind).tapPromise('test:event-log', async (event, ctx) => {
        fs.appendFileSync(path.join(ctx.projectDir, 'events.' + ctx.podName + '.log'), JSON.stringify(event) + '\\n');
      });
    }
  },
});

const waitForFile = definePlugin({
  name: 'test:wait-for-file',
  apply(host) {
    host.hooks.tools.for('WaitForFile').tap('test:wait-for-file', () => ({
      name: 'WaitForFile',
      description: 'Waits until a file exists.',
      input: z.object({ path: z.string() }),
      async execute({ path }, ctx) {
        while (!fs.existsSync(path) && !ctx.signal.aborted) await new Promise((r) => setTimeout(r, 20));
        return { summary: 'found ' + path };
      },
    }));
  },
});

export default { model: { provider: 'scripted', script: 'script.{pod}.json' }, plugins: [...defaultPlugins(), waitForFile(), eventLog()] };
`;

type Reply = { text?: string; delay_ms?: number; tool_calls?: { name: string; arguments: Record<string, unknown> }[] };
const call = (name: string, args: Record<string, unknown>): Reply => ({ tool_calls: [{ name, arguments: args }] });
const spawnPod = (name: string, task: string, scope: { target: string; permission: 'read' | 'write' }[]) =>
  call('SpawnPod', { name, task, scope });

function project(scripts: Record<string, Reply[]>, files: Record<string, string> = {}) {
  const dir = fs.realpathSync(
    makeProject({ 'yoi.config.ts': CONFIG, 'src/a.ts': 'a\n', 'src/deep/b.ts': 'b\n', ...files }),
  );
  const run = path.join(dir, 'run');
  const setScript = (pod: string, replies: Reply[]) =>
    fs.writeFileSync(path.join(dir, `script.${pod}.json`), JSON.stringify(replies));
  for (const [pod, replies] of Object.entries(scripts)) setScript(pod, replies);
  const env = { YOI_RUNTIME_DIR: run };
  // Every pod of this project (children are detached: they are not killed with the root).
  cleanups.push(() => {
    for (const pid of pidsUnder(run)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  });
  return {
    dir,
    run,
    env,
    setScript,
    lock: () =>
      JSON.parse(fs.readFileSync(path.join(run, 'scope.lock'), 'utf8')).allocations as {
        pod_name: string;
        pid: number;
        delegated_from: string | null;
        scope_allow: unknown[];
      }[],
    registry: (pod: string) => {
      try {
        return JSON.parse(fs.readFileSync(path.join(run, pod, 'spawned_pods.json'), 'utf8')) as {
          pod_name: string;
          via?: string;
        }[];
      } catch {
        return [];
      }
    },
    /** The reports `pod` received, in order. */
    received: (pod: string) => {
      const file = path.join(dir, `events.${pod}.log`);
      return fs.existsSync(file)
        ? fs
            .readFileSync(file, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as { kind: string; pod_name?: string })
        : [];
    },
    start: async (name: string) => {
      const pod = await startPodProcess(['--name', name], { cwd: dir, env });
      cleanups.push(() => pod.child.kill('SIGKILL'));
      return pod;
    },
  };
}

function pidsUnder(run: string): number[] {
  const pids: number[] = [];
  for (const name of fs.existsSync(run) ? fs.readdirSync(run) : []) {
    try {
      pids.push(Number(fs.readFileSync(path.join(run, name, 'pid'), 'utf8')));
    } catch {
      // not a pod directory, or already removed
    }
  }
  return pids;
}

async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function client(socketPath: string): Promise<PodClient> {
  const c = await PodClient.connect({ socketPath, clientName: 'test/1' });
  cleanups.push(() => c.close());
  return c;
}

type Item = { type: string; role?: string; content?: { text: string }[]; summary?: string; is_error?: boolean };
async function history(c: PodClient): Promise<Item[]> {
  const h = await c.request({ method: 'get_history' });
  return h.event === 'history' ? (h.data.items as Item[]) : [];
}
const notes = (items: Item[]) => items.filter((i) => i.role === 'system').map((i) => i.content![0].text.split('\n')[1]);
const results = (items: Item[]) =>
  items.filter((i) => i.type === 'tool_result').map((i) => `${i.is_error ? 'ERROR ' : ''}${i.summary}`);

describe('the pod tree across processes', () => {
  it("root → child → grandchild: delegation, refusals, the grandchild in root's registry; a SIGKILLed child is reclaimed by ListPods", async () => {
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-out-')));
    const p = project({
      root: [
        spawnPod('child', 'split the work', [{ target: 'src', permission: 'write' }]),
        spawnPod('child', 'again', [{ target: 'src/x', permission: 'write' }]),
        spawnPod('other', 'overlap', [{ target: 'src/lib', permission: 'write' }]),
        spawnPod('outsider', 'escape', [{ target: outside, permission: 'write' }]),
        spawnPod('broken', 'has no script', [{ target: 'docs', permission: 'write' }]),
        call('WaitForFile', { path: 'GO' }),
        call('ListPods', {}),
        call('Write', { file_path: 'src/deep/mine.ts', content: 'root was here' }),
        call('Write', { file_path: 'src/mine.ts', content: 'root was here' }),
        call('SendToPod', { name: 'grandchild', message: 'one more thing' }),
        { text: 'root done' },
      ],
      child: [
        spawnPod('grandchild', 'deep work', [{ target: 'src/deep', permission: 'write' }]),
        { text: 'child done' },
      ],
      grandchild: [{ text: 'grandchild done' }, { text: 'more done' }],
    });
    const src = path.join(p.dir, 'src');
    const root = await p.start('root');
    const c = await client(root.socket);
    await c.request({ method: 'run', params: { input: [{ kind: 'text', content: 'organise the work' }] } });

    // The child spawned the grandchild, reported it, and its turn (started by root) ended.
    await eventually("the child's reports", () => p.received('root').some((e) => e.kind === 'turn_ended'));
    expect(p.received('root')).toEqual([
      {
        kind: 'scope_sub_delegated',
        parent_pod: 'child',
        sub_pod: 'grandchild',
        sub_socket: path.join(p.run, 'grandchild', 'sock'),
        scope: [{ target: path.join(src, 'deep'), permission: 'write', recursive: true }],
        secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
      { kind: 'turn_ended', pod_name: 'child' },
    ]);
    // The five SpawnPod calls before WaitForFile have their results.
    const first = await eventually('five results', async () => {
      const items = await history(c);
      return results(items).length >= 5 && items;
    });
    expect(results(first).slice(0, 4)).toEqual([
      `spawned pod \`child\` listening on ${path.join(p.run, 'child', 'sock')}`,
      'ERROR pod name `child` is already registered',
      `ERROR requested scope \`${path.join(src, 'lib')}\` conflicts with pod \`child\``,
      `ERROR requested scope \`${outside}\` is not within spawner \`root\`'s effective scope`,
    ]);
    // A child that cannot start: its reservation is released and the end of its log is shown.
    const broken = first.filter((i) => i.type === 'tool_result')[4] as Item & { content?: string };
    expect(broken.summary).toMatch(
      /^spawned pod `broken` exited with code 1 before listening: cannot start provider "scripted": .*script\.broken\.json/,
    );
    expect(broken.content).toContain('ENOENT');
    // Settled once the spawns have their results (a child is recorded from before it starts).
    expect(p.registry('root')).toEqual([
      expect.objectContaining({
        pod_name: 'child',
        scope_delegated: [{ target: src, permission: 'write', recursive: true }],
      }),
      expect.objectContaining({
        pod_name: 'grandchild',
        via: 'child',
        scope_delegated: [{ target: path.join(src, 'deep'), permission: 'write', recursive: true }],
      }),
    ]);
    expect(p.registry('child')).toEqual([
      expect.objectContaining({ pod_name: 'grandchild', callback_address: path.join(p.run, 'child', 'sock') }),
    ]);
    expect(fs.existsSync(path.join(p.run, 'other'))).toBe(false);
    expect(fs.existsSync(path.join(p.run, 'broken'))).toBe(false);
    const lock = p.lock();
    expect(lock.map((a) => [a.pod_name, a.delegated_from])).toEqual([
      ['root', null],
      ['child', 'root'],
      ['grandchild', 'child'],
    ]);

    const childPid = lock.find((a) => a.pod_name === 'child')!.pid;
    process.kill(childPid, 'SIGKILL');
    await eventually('the child to die', () => !isPidAlive(childPid));
    // Its main thread is a zombie (dead to isPidAlive) while its other threads still exit and hold
    // its files, the listening socket too: ListPods would find it alive for that moment.
    const childSocket = path.join(p.run, 'child', 'sock');
    await eventually('the socket of the child to close', async () => !(await isSocketLive(childSocket)));
    const ended = c.waitFor((e) => e.event === 'run_end', 30_000);
    fs.writeFileSync(path.join(p.dir, 'GO'), '');
    await ended;

    const items = await history(c);
    expect(notes(items).slice(0, 2)).toEqual([
      'Pod `child` spawned `grandchild` and delegated scope to it.',
      'Pod `child` finished a turn.',
    ]);
    const listPods = items.find((i) => i.type === 'tool_result' && i.summary?.startsWith('2 pods known'));
    expect(`${listPods?.summary}\n${(listPods as { content?: string }).content}`).toBe(
      [
        '2 pods known, 1 stopped',
        `child [stopped] scope=write:${src}`,
        `grandchild [alive] scope=write:${path.join(src, 'deep')} (spawned by child)`,
        'Stopped pods removed, their scope reclaimed: child',
      ].join('\n'),
    );
    expect(p.registry('root').map((r) => r.pod_name)).toEqual(['grandchild']);
    // The grandchild now belongs to root: root cannot write into its region, but again into the rest of src.
    expect(p.lock().map((a) => [a.pod_name, a.delegated_from])).toEqual([
      ['root', null],
      ['grandchild', 'root'],
    ]);
    expect(results(items).slice(-3)).toEqual([
      `ERROR cannot write ${path.join(src, 'deep', 'mine.ts')}: read-only: outside the pod's write scope`,
      `Created ${path.join(src, 'mine.ts')} (13 bytes)`,
      'sent message to `grandchild`',
    ]);
    // Its spawner is gone: the grandchild now reports to root, which took it over.
    await eventually("the grandchild's report to root", () =>
      p.received('root').some((e) => e.kind === 'turn_ended' && e.pod_name === 'grandchild'),
    );
  });

  it('the child keeps working while its parent is down; the restarted parent gets its registry back and the report it missed; SIGTERM is reported', async () => {
    const p = project({
      root: [spawnPod('child', 'take your time', [{ target: 'src', permission: 'write' }]), { text: 'spawned' }],
      child: [{ text: 'slow answer', delay_ms: 2500 }, { text: 'still here' }],
    });
    const root = await p.start('root');
    const c = await client(root.socket);
    await c.request({ method: 'run', params: { input: [{ kind: 'text', content: 'spawn' }] } });
    await eventually("the child in root's registry", () => p.registry('root').length === 1);
    // Killed only once the child has its task (the record is written before the child starts).
    await eventually("the spawn's result", async () =>
      JSON.stringify(await history(c)).includes('spawned pod `child`'),
    );
    root.child.kill('SIGKILL');
    await root.exited;

    // The child finishes the turn root gave it (its report cannot be delivered) and serves others.
    const childSocket = path.join(p.run, 'child', 'sock');
    const k = await client(childSocket);
    // (Asked on this connection: its events before the answer are dispatched before it.)
    await eventually("the child's answer to root", async () =>
      JSON.stringify(await history(k)).includes('slow answer'),
    );
    const done = k.waitFor((e) => e.event === 'text_done');
    await k.request({ method: 'run', params: { input: [{ kind: 'text', content: 'are you alive?' }] } });
    expect((await done).data).toEqual({ text: 'still here' });

    p.setScript('root', []); // after a restart the script starts over: answer like echo
    const again = await p.start('root');
    await eventually('the restore note', () =>
      again.stderr().includes(`restored 1 spawned pod(s) from ${path.join(p.run, 'root', 'spawned_pods.json')}`),
    );
    expect(p.lock().find((a) => a.pod_name === 'child')?.delegated_from).toBe('root');
    const r = await client(again.socket);
    // The child's outbox was still retrying: the report arrives once.
    const n = await eventually('the missed report', async () => {
      const all = notes(await history(r));
      return all.includes('Pod `child` finished a turn.') && all;
    });
    expect(n.filter((x) => x === 'Pod `child` finished a turn.')).toHaveLength(1);

    // A signal is a clean shutdown too: the child says it stopped.
    process.kill(p.lock().find((a) => a.pod_name === 'child')!.pid, 'SIGTERM');
    await eventually('the stop report', async () => notes(await history(r)).includes('Pod `child` has stopped.'));
    expect(p.registry('root')).toEqual([]);
    expect(p.lock().map((a) => a.pod_name)).toEqual(['root']);
  });
});
