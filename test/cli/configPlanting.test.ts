import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { makeProject, recorder, runEnded, text } from '../support/startTestPod.js';
import { startPodProcess, yoi } from '../support/runCli.js';

/**
 * Attacks that worked: the model's tools wrote a file the next config load reads, so the user's
 * next `yoi pod start` (or a spawned child) ran the model's code outside the sandbox or took a
 * wider scope. Each wrote a path that was not protected: a config in a directory the search
 * passes between the working directory and the config; a package.json there (it ends the search);
 * a module that shadows one the config imports (`./helpers` found as `helpers/index.ts`, shadowed
 * by a new `helpers.ts`); the package.json holding the config; and, through Bash, which no mount
 * stops from creating a path that does not exist yet, a `yoi.config.ts` next to `yoi.config.json`
 * and the trust store. Now the file tools refuse them, and what a command created there is removed
 * when it ends; the config found afterwards is the user's own.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Call = { name: string; arguments: Record<string, unknown> };
const PAYLOAD = (marker: string) =>
  `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { name: 'planted', model: { provider: 'echo' } };\n`;

/** Runs `calls` (one tool call per model turn) in a pod started in `cwd`; returns each call's result. */
async function attempt(dir: string, cwd: string, calls: Call[], env: NodeJS.ProcessEnv = {}) {
  const script = [...calls.map((c) => ({ tool_calls: [c] })), { text: 'done' }];
  fs.writeFileSync(path.join(dir, 'script.json'), JSON.stringify(script));
  const run = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-run-'));
  cleanups.push(() => fs.rmSync(run, { recursive: true, force: true }));
  const pod = await startPodProcess(['--name', 'p'], { cwd, env: { YOI_RUNTIME_DIR: run, ...env } });
  cleanups.push(() => pod.child.kill('SIGKILL'));
  const c = await PodClient.connect({ socketPath: pod.socket, clientName: 'test/1' });
  cleanups.push(() => c.close());
  const events = recorder(c);
  const ended = runEnded(c, 60_000);
  await c.request({ method: 'run', params: { input: [text('plant a config')] } });
  expect((await ended).event).toBe('run_end');
  // The pod keeps serving.
  const again = runEnded(c, 30_000);
  await c.request({ method: 'run', params: { input: [text('still there?')] } });
  expect((await again).event).toBe('run_end');
  return events
    .filter((e) => e.event === 'tool_result')
    .map((e) => {
      const { summary, is_error } = e.data as { summary: string; is_error?: boolean };
      return { summary, is_error: is_error === true };
    })
    .slice(0, calls.length);
}

const write = (file: string, content: string): Call => ({ name: 'Write', arguments: { file_path: file, content } });
const refusal = (file: string) => ({
  summary: `cannot write ${file}: it is part of the pod's control plane (its config); the pod's tools cannot write it`,
  is_error: true,
});
const configShown = (cwd: string, env: NodeJS.ProcessEnv = {}) => {
  const r = yoi(['config', '--json'], { cwd, env });
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as { configPath: string | null; name: string };
};

describe('what the next config load reads is the control plane', () => {
  it('a config or package.json between the cwd and the config, and a module shadowing an import, are refused', async () => {
    const dir = fs.realpathSync(
      makeProject({
        'yoi.config.ts': `import { extra } from './helpers';\nexport default { name: 'real', model: { provider: 'scripted', script: 'script.json' }, ...extra };\n`,
        'helpers/index.ts': 'export const extra = {};\n',
        'a/b/.keep': '',
      }),
    );
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const at = (p: string) => path.join(dir, p);
    const marker = at('ran');
    const planted = [at('a/yoi.config.ts'), at('a/b/package.json'), at('a/package.json'), at('helpers.ts')];
    const results = await attempt(dir, at('a/b'), [
      write(planted[0], PAYLOAD(marker)),
      write(planted[1], JSON.stringify({ name: 'sub', yoi: { name: 'planted' } })),
      write(planted[2], JSON.stringify({ name: 'a' })),
      write(planted[3], PAYLOAD(marker).replace('export default', 'export const extra =')),
      write(at('a/b/notes.md'), 'an ordinary file\n'),
    ]);

    expect(results.slice(0, 4)).toEqual(planted.map(refusal));
    expect(results[4]).toEqual({ summary: expect.stringMatching(/^Created /), is_error: false });
    for (const p of planted) expect(fs.existsSync(p)).toBe(false);
    const shown = configShown(at('a/b'));
    expect([shown.configPath, shown.name]).toEqual([at('yoi.config.ts'), 'real']);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('a package.json holding the config is the config: its yoi key is not the model to edit', async () => {
    const pkg = JSON.stringify({
      name: 'proj',
      yoi: { name: 'real', model: { provider: 'scripted', script: 'script.json' } },
    });
    const dir = fs.realpathSync(makeProject({ 'package.json': pkg }));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'package.json');
    const results = await attempt(dir, dir, [
      { name: 'Read', arguments: { file_path: file } },
      {
        name: 'Edit',
        arguments: {
          file_path: file,
          old_string: '"name":"real"',
          new_string: '"name":"real","scope":{"allow":[{"target":"/","permission":"write"}]}',
        },
      },
    ]);
    expect(results[1]).toEqual(refusal(file));
    expect(fs.readFileSync(file, 'utf8')).toBe(pkg);
  });

  it("a yoi key put in the package.json where the search ends is refused, or taken back from a command's writes", async () => {
    const outside = fs.realpathSync(makeProject({ 'script.json': '[]' }));
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    const pkg = '{\n    "name": "proj"\n}\n';
    const dir = fs.realpathSync(makeProject({ 'package.json': pkg }));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    // The config is given (YOI_CONFIG) from elsewhere: a search from the project finds none.
    const config = path.join(outside, 'config.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        model: { provider: 'scripted', script: path.join(outside, 'script.json') },
        permissions: { default: 'allow' },
        scope: { allow: [{ target: dir, permission: 'write' }] },
      }),
    );
    const file = path.join(dir, 'package.json');
    const planted = { name: 'planted', bash: { sandbox: 'off' } };
    const script = `const fs = require('fs'); const p = JSON.parse(fs.readFileSync('package.json', 'utf8')); p.version = '2.0.0'; p.yoi = ${JSON.stringify(planted)}; fs.writeFileSync('package.json', JSON.stringify(p, null, 4) + '\\n');`;
    fs.writeFileSync(path.join(dir, 'plant.cjs'), script);
    const calls: Call[] = [
      { name: 'Read', arguments: { file_path: file } },
      {
        name: 'Edit',
        arguments: {
          file_path: file,
          old_string: '"name": "proj"',
          new_string: `"name": "proj", "yoi": ${JSON.stringify(planted)}`,
        },
      },
      {
        name: 'Edit',
        arguments: { file_path: file, old_string: '"name": "proj"', new_string: '"name": "proj", "private": true' },
      },
      { name: 'Bash', arguments: { command: 'node plant.cjs' } },
    ];
    const results = await attempt(outside, dir, calls, { YOI_CONFIG: config });

    expect(results[1]).toEqual({
      summary: `cannot write ${file}: its \`yoi\` key is part of the pod's control plane (its config); the pod's tools cannot write it`,
      is_error: true,
    });
    expect(results[2]).toEqual({ summary: `Edited ${file} (1 replacement)`, is_error: false });
    expect(results[3].is_error).toBe(true);
    expect(results[3].summary).toContain(
      `restored the \`yoi\` key of ${file}: it is part of the pod's control plane (its config)`,
    );
    // The command's other change stays; the key is gone again; no config is found there.
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ name: 'proj', private: true, version: '2.0.0' });
    expect(configShown(dir).configPath).toBeNull();

    // One too large to check is not read whole into the pod: it is moved aside, nothing lost.
    const big = `node -e "require('fs').writeFileSync('package.json', JSON.stringify({ yoi: { name: 'planted' }, pad: 'x'.repeat(17 * 1024 * 1024) }))"`;
    const [huge] = await attempt(outside, dir, [{ name: 'Bash', arguments: { command: big } }], { YOI_CONFIG: config });
    expect(huge.is_error).toBe(true);
    expect(huge.summary).toContain(`moved ${file} to ${file}.over-16MiB: over 16 MiB, its \`yoi\` key`);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.statSync(`${file}.over-16MiB`).size).toBeGreaterThan(17 * 1024 * 1024);
    expect(configShown(dir).configPath).toBeNull();
  });

  it('what a command creates where the config would be found next, or the trust store, is removed when it ends', async () => {
    const dir = fs.realpathSync(
      makeProject({
        'yoi.config.json': JSON.stringify({
          name: 'real',
          model: { provider: 'scripted', script: 'script.json' },
          permissions: { default: 'allow' },
        }),
      }),
    );
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const at = (p: string) => path.join(dir, p);
    const marker = at('ran');
    fs.writeFileSync(at('payload.ts'), PAYLOAD(marker));
    const xdg = at('xdg');
    const results = await attempt(
      dir,
      dir,
      [
        {
          name: 'Bash',
          arguments: {
            command:
              'cp payload.ts yoi.config.ts && mkdir -p xdg/yoi && echo "{}" > xdg/yoi/trust.json && echo planted',
          },
        },
        { name: 'Bash', arguments: { command: 'echo ordinary > notes.md' } },
      ],
      { XDG_CONFIG_HOME: xdg },
    );

    expect(results[0].is_error).toBe(true);
    expect(results[0].summary).toContain(
      `removed ${at('yoi.config.ts')}: it is part of the pod's control plane (its config); the pod's tools cannot write it`,
    );
    expect(results[0].summary).toContain(`removed ${path.join(xdg, 'yoi')}: it is part of the pod's control plane`);
    expect(results[0].summary).not.toContain('\n');
    expect(results[1]).toEqual({ summary: 'Command exited with code 0', is_error: false });
    expect(fs.readFileSync(at('notes.md'), 'utf8')).toBe('ordinary\n');
    expect(fs.existsSync(at('yoi.config.ts'))).toBe(false);
    expect(fs.existsSync(path.join(xdg, 'yoi'))).toBe(false);
    const shown = configShown(dir, { XDG_CONFIG_HOME: xdg });
    expect([shown.configPath, shown.name]).toEqual([at('yoi.config.json'), 'real']);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
