import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { makeProject, recorder, runEnded, text } from '../support/startTestPod.js';
import { startPodProcess, yoi } from '../support/runCli.js';

/**
 * Config trust with real processes. The attack was: the config changes after the pod started
 * (the model edited it then; here the test edits it, as the user or anyone with write access
 * would) and SpawnPod makes the child load and run it. Now the child compares the config with
 * the digest its parent loaded and refuses different content until the user runs `yoi trust`.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const PLUGINS = `import fs from 'node:fs';
import { defaultPlugins, definePlugin, z } from 'yoi';
const waitForFile = definePlugin({
  name: 'test:wait-for-file',
  apply(host) {
    host.hooks.tools.for('WaitForFile').tap('test:wait-for-file', () => ({
      name: 'WaitForFile', description: 'Waits until a file exists.', input: z.object({ path: z.string() }),
      async execute({ path }, ctx) {
        while (!fs.existsSync(path) && !ctx.signal.aborted) await new Promise((r) => setTimeout(r, 20));
        return { summary: 'found ' + path };
      },
    }));
  },
});
export const plugins = [...defaultPlugins(), waitForFile()];
`;
const CONFIG = `import { plugins } from './plugins.ts';
export default { model: { provider: 'scripted', script: 'script.{pod}.json' }, plugins };
`;
// What the changed module does when it runs: proof that a pod executed it.
const PAYLOAD =
  "import fs from 'node:fs';\nfs.writeFileSync(`EXECUTED-${process.pid}`, fs.readFileSync('/etc/hostname'));\n";

type Reply = { text?: string; tool_calls?: { name: string; arguments: Record<string, unknown> }[] };
const call = (name: string, args: Record<string, unknown>): Reply => ({ tool_calls: [{ name, arguments: args }] });
const spawn = (name: string) =>
  call('SpawnPod', { name, task: 'work', scope: [{ target: `src/${name}`, permission: 'write' }] });

function project(files: Record<string, string>, scripts: Record<string, Reply[]>) {
  const dir = fs.realpathSync(makeProject({ 'src/a.ts': 'a\n', ...files }));
  for (const [pod, replies] of Object.entries(scripts))
    fs.writeFileSync(path.join(dir, `script.${pod}.json`), JSON.stringify(replies));
  const run = path.join(dir, 'run');
  const xdg = path.join(dir, 'xdg');
  const env = { YOI_RUNTIME_DIR: run, XDG_CONFIG_HOME: xdg };
  cleanups.push(() => {
    for (const name of fs.existsSync(run) ? fs.readdirSync(run) : []) {
      try {
        process.kill(Number(fs.readFileSync(path.join(run, name, 'pid'), 'utf8')), 'SIGKILL');
      } catch {
        // not a pod directory, or gone
      }
    }
  });
  const executed = () => fs.readdirSync(dir).filter((f) => f.startsWith('EXECUTED-'));
  const lockNames = () =>
    (JSON.parse(fs.readFileSync(path.join(run, 'scope.lock'), 'utf8')).allocations as { pod_name: string }[]).map(
      (a) => a.pod_name,
    );
  return { dir, run, xdg, env, executed, lockNames };
}

async function eventually<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Result = { summary: string; is_error?: boolean; content?: string };

describe('config trust', () => {
  it("a child refuses a config changed behind its parent's back, names yoi trust, and starts once the user trusted it", async () => {
    const p = project(
      { 'yoi.config.ts': CONFIG, 'plugins.ts': PLUGINS },
      {
        root: [
          spawn('first'),
          call('WaitForFile', { path: 'CHANGED' }),
          spawn('second'),
          call('WaitForFile', { path: 'TRUSTED' }),
          spawn('third'),
          { text: 'root done' },
        ],
        first: [{ text: 'first done' }],
        second: [{ text: 'second done' }],
        third: [{ text: 'third done' }],
      },
    );
    const root = await startPodProcess(['--name', 'root'], { cwd: p.dir, env: p.env });
    cleanups.push(() => root.child.kill('SIGKILL'));
    const c = await PodClient.connect({ socketPath: root.socket, clientName: 'test/1' });
    cleanups.push(() => c.close());
    const events = recorder(c);
    const results = () => events.filter((e) => e.event === 'tool_result').map((e) => e.data as Result);
    const ended = runEnded(c, 90_000);
    ended.catch(() => undefined); // awaited below; a failure before that must not go unhandled
    await c.request({ method: 'run', params: { input: [text('go')] } });

    // Unchanged config: the child starts.
    await eventually('the first spawn', () => results().length >= 1);
    expect(results()[0]).toMatchObject({
      summary: `spawned pod \`first\` listening on ${path.join(p.run, 'first', 'sock')}`,
    });

    // Changed behind the pod's back: a module the config imports now imports one that runs.
    fs.writeFileSync(path.join(p.dir, 'payload.ts'), PAYLOAD);
    fs.writeFileSync(path.join(p.dir, 'plugins.ts'), `import './payload.ts';\n${PLUGINS}`);
    fs.writeFileSync(path.join(p.dir, 'CHANGED'), '');
    await eventually('the second spawn', () => results().length >= 3);
    const refused = results()[2];
    expect(refused.is_error).toBe(true);
    expect(refused.summary).toBe(
      `spawned pod \`second\` exited with code 1 before listening: config ${path.join(p.dir, 'yoi.config.ts')} changed since the spawning pod loaded it; a spawned pod loads a changed config only once you trust it: run \`yoi trust\` in ${p.dir} [YOI_ERR_CONFIG_UNTRUSTED]`,
    );
    expect(p.executed()).toEqual([]);
    expect(p.lockNames()).toEqual(['root', 'first']);
    expect(fs.existsSync(path.join(p.run, 'second'))).toBe(false);

    // The user trusts the config as it is now.
    const trusted = yoi(['trust'], { cwd: p.dir, env: p.env });
    expect(trusted.stderr).toBe('');
    const store = path.join(p.xdg, 'yoi', 'trust.json');
    expect(trusted.stdout.split('\n')[0]).toMatch(
      new RegExp(`^trusted ${path.join(p.dir, 'yoi.config.ts')} as it is now \\(sha256 [0-9a-f]{64}\\), in ${store}:$`),
    );
    expect(trusted.stdout.split('\n').slice(1).filter(Boolean).sort()).toEqual([
      '  payload.ts',
      '  plugins.ts',
      '  yoi.config.ts',
    ]);
    expect(fs.statSync(store).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(store)).mode & 0o777).toBe(0o700);
    fs.writeFileSync(path.join(p.dir, 'TRUSTED'), '');

    expect((await ended).event).toBe('run_end');
    expect(results()[4]).toMatchObject({
      summary: `spawned pod \`third\` listening on ${path.join(p.run, 'third', 'sock')}`,
    });
    expect(p.executed()).toHaveLength(1); // the trusted content ran, in the third child
    expect(p.lockNames()).toEqual(['root', 'first', 'third']);
  });

  it('a plain-data config counts too; a pod the user starts loads the changed config as before', async () => {
    const config = { model: { provider: 'scripted', script: 'script.{pod}.json' } };
    const p = project(
      { 'yoi.config.json': JSON.stringify(config) },
      {
        root: [spawn('child'), { text: 'done' }],
        mine: [],
      },
    );
    const root = await startPodProcess(['--name', 'root'], { cwd: p.dir, env: p.env });
    cleanups.push(() => root.child.kill('SIGKILL'));
    fs.writeFileSync(path.join(p.dir, 'yoi.config.json'), JSON.stringify({ ...config, systemPrompt: 'changed' }));
    const c = await PodClient.connect({ socketPath: root.socket, clientName: 'test/1' });
    cleanups.push(() => c.close());
    const events = recorder(c);
    const ended = runEnded(c, 60_000);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    expect((await ended).event).toBe('run_end');
    const spawned = events.filter((e) => e.event === 'tool_result').map((e) => e.data as Result)[0];
    expect(spawned.summary).toMatch(
      /exited with code 1 before listening: config .*yoi\.config\.json changed since the spawning pod loaded it; .*run `yoi trust` in /,
    );

    // The user's own start is the user's say.
    const mine = await startPodProcess(['--name', 'mine'], { cwd: p.dir, env: p.env });
    cleanups.push(() => mine.child.kill('SIGKILL'));
    expect(mine.socket).toBe(path.join(p.run, 'mine', 'sock'));
  });
});
