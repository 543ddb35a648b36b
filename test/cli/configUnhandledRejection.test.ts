import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject } from '../support/startTestPod.js';
import { startPodProcess, yoi } from '../support/runCli.js';

/**
 * A config whose evaluation left a promise rejection unhandled
 * (`Promise.reject(new Error("floating")); export default {}`) crashed `yoi pod start` with jiti's
 * stack trace, and `--detach` said only `yoi: Node.js v20.20.2 [YOI_ERR_CONNECTION]` (the last
 * line of the pod's log). Now the start fails with one line naming the file, as a config that
 * throws does; a rejection left by a plugin once the pod runs still ends it, and `--detach`
 * names the error Node printed.
 */
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c(); // pods stop before their project is removed
});

function project(files: Record<string, string>) {
  const dir = makeProject(files);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
  return { dir, env, run: (args: string[]) => yoi(args, { cwd: dir, env }) };
}

const FLOATING = 'Promise.reject(new Error("floating")); export default {}\n';
const FLOATING_LINE =
  'yoi: yoi.config.ts: failed to load: a promise rejection was left unhandled: floating [YOI_ERR_CONFIG]\n';

describe('a config that leaves a promise rejection unhandled', () => {
  it('fails `yoi pod start` with one line, in the foreground and with --detach; the fixed config starts', async () => {
    const p = project({ 'yoi.config.ts': FLOATING });
    const foreground = p.run(['pod', 'start', '--name', 'k']);
    expect([foreground.status, foreground.stderr]).toEqual([1, FLOATING_LINE]);
    const detached = p.run(['pod', 'start', '--name', 'k', '--detach']);
    expect([detached.status, detached.stderr]).toEqual([1, FLOATING_LINE]);

    fs.writeFileSync(path.join(p.dir, 'yoi.config.ts'), 'export default {}\n');
    const started = p.run(['pod', 'start', '--name', 'k', '--detach']);
    cleanups.push(() => p.run(['pod', 'stop', '--pod', 'k']));
    expect([started.status, started.stderr]).toEqual([0, '']);
    expect(started.stdout).toBe(`listening ${path.join(p.dir, 'run', 'k', 'sock')}\n`);
    const pod = await startPodProcess(['--name', 'k2'], { cwd: p.dir, env: p.env });
    cleanups.push(() => pod.child.kill('SIGKILL'));
  }, 60_000);

  it('names the file when the rejection comes from a module the config imports', () => {
    const p = project({
      'yoi.config.ts': "import { name } from './plugin.ts';\nexport default { name };\n",
      'plugin.ts': "Promise.reject(new Error('from a plugin module'));\nexport const name = 'p';\n",
    });
    const r = p.run(['pod', 'start', '--detach']);
    expect([r.status, r.stderr]).toEqual([
      1,
      'yoi: yoi.config.ts: failed to load: a promise rejection was left unhandled: from a plugin module [YOI_ERR_CONFIG]\n',
    ]);
  });

  it("a plugin's stray rejection after the load still ends the pod; --detach names Node's error", () => {
    const p = project({
      'yoi.config.ts': `import { defaultPlugins, definePlugin } from 'yoi';
const stray = definePlugin({
  name: 'test:stray',
  apply() {
    void Promise.reject(new Error('stray'));
  },
});
export default { plugins: [...defaultPlugins(), stray()] };
`,
    });
    const r = p.run(['pod', 'start', '--name', 's', '--detach']);
    expect([r.status, r.stderr]).toEqual([
      1,
      'yoi: the pod exited before it listened: Error: stray [YOI_ERR_CONNECTION]\n',
    ]);
  });
});
