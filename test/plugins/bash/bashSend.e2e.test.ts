import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject } from '../../support/startTestPod.js';
import { startPodProcess, yoi } from '../../support/runCli.js';
import { describeSandboxed } from './bashHarness.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describeSandboxed('Bash end to end: `yoi pod start` on the scripted provider, driven by `yoi send`', () => {
  it("runs the model's commands in the sandbox and streams what they printed", async () => {
    const script = [
      {
        tool_calls: [
          {
            name: 'Bash',
            arguments: {
              command:
                'echo built > out.txt; echo to-stderr >&2; cat out.txt; printenv ANTHROPIC_API_KEY || echo no-key',
            },
          },
          { name: 'Bash', arguments: { command: 'echo "{}" > yoi.config.json' } },
        ],
      },
      // then the script is exhausted: the echo answer shows the model what the tools returned
    ];
    const config = JSON.stringify({
      model: { provider: 'scripted', script: 's.json' },
      permissions: { rules: [{ tool: 'Bash', action: 'allow' }] },
    });
    const dir = makeProject({ 's.json': JSON.stringify(script), 'yoi.config.json': config });
    const env = { YOI_RUNTIME_DIR: path.join(dir, 'run'), ANTHROPIC_API_KEY: 'sk-never-in-a-command' };
    const pod = await startPodProcess([], { cwd: dir, env });
    cleanups.push(() => pod.child.kill('SIGKILL'));

    const sent = yoi(['send', 'build it'], { cwd: dir, env, timeoutMs: 60_000 });
    expect(sent.stderr).toBe('');
    expect(sent.status).toBe(0);
    expect(sent.stdout).toContain('[tool] Command exited with code 0\nto-stderr\nbuilt\nno-key\n');
    expect(sent.stdout).toMatch(/\[tool\] Command exited with code 1\n.*yoi\.config\.json: Read-only file system/);
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('built\n');
    expect(fs.readFileSync(path.join(dir, 'yoi.config.json'), 'utf8')).toBe(config);
    expect(sent.stdout).not.toContain('sk-never-in-a-command');
    expect(yoi(['pod', 'stop'], { cwd: dir, env }).status).toBe(0);
    expect(await pod.exited).toBe(0);
  });
});

describe('Bash configured as the README shows', () => {
  it('replaces the built-in with bashTool({ network: true }) from yoi/plugins', () => {
    const dir = makeProject({
      'yoi.config.ts': [
        "import { defaultPlugins } from 'yoi';",
        "import { bashTool } from 'yoi/plugins';",
        '',
        "export default { plugins: [...defaultPlugins({ exclude: ['yoi:bash'] }), bashTool({ network: true })] };",
      ].join('\n'),
    });
    const r = yoi(['plugins', '--json'], { cwd: dir });
    expect(r.stderr).toBe('');
    const plugins = JSON.parse(r.stdout) as { name: string; hooks: string[] }[];
    expect(plugins.filter((p) => p.name === 'yoi:bash')).toEqual([
      expect.objectContaining({ name: 'yoi:bash', hooks: ['tools(Bash)'], configKey: 'bash' }),
    ]);
    expect(plugins.at(-1)?.name).toBe('yoi:bash');
  });
});
