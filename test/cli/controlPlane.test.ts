import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { makeProject, recorder, runEnded, text } from '../support/startTestPod.js';
import { startPodProcess } from '../support/runCli.js';

/**
 * The model cannot write the pod's control plane, whatever the scope says. The attack: with
 * the default scope (the whole project), the model Edits yoi.config.ts to import a module that
 * reads an outside file, then spawns a child, which loads that config and runs it. Here every
 * write to the config, its local module, `.yoi/` state, the runtime directory (inside the
 * project, so in scope) and the trust store is refused; the user's knowledge folder stays
 * writable; the pod keeps running.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// A module imported with a computed name: only jiti can tell it was loaded. One imported only as
// types is never run by the load: it is not part of the config, and the model may edit it.
const CONFIG = `import type { T } from './types.ts';
import { prompt } from './helper.ts';
const { suffix } = await import('./dyn' + '.ts');
export default { systemPrompt: prompt + suffix, model: { provider: 'scripted', script: 'script.{pod}.json' } };
`;
const DYN = "export const suffix = '!';\n";
const HELPER = "export const prompt = 'be brief';\n";
const EVIL = "import fs from 'node:fs';\nexport const stolen = fs.readFileSync('/etc/hostname', 'utf8');\n";

type Call = { name: string; arguments: Record<string, unknown> };
const call = (name: string, args: Record<string, unknown>) => ({
  tool_calls: [{ name, arguments: args } satisfies Call],
});

describe('the control plane', () => {
  it('config, its modules, .yoi state, the runtime dir and the trust store are refused to the model; knowledge is not', async () => {
    const dir = fs.realpathSync(
      makeProject({
        'yoi.config.ts': CONFIG,
        'helper.ts': HELPER,
        'dyn.ts': DYN,
        'types.ts': 'export type T = string;\n',
        '.yoi/sessions/.keep': '',
        '.yoi/knowledge/.keep': '',
      }),
    );
    const run = path.join(dir, 'run');
    const xdg = path.join(dir, 'xdg');
    const at = (p: string) => path.join(dir, p);
    const attempts: [string, Call][] = [
      [
        'yoi.config.ts',
        {
          name: 'Edit',
          arguments: {
            file_path: at('yoi.config.ts'),
            old_string: "import { prompt } from './helper.ts';",
            new_string: "import { prompt } from './helper.ts';\nimport './evil.ts';",
          },
        },
      ],
      [
        'yoi.config.ts',
        {
          name: 'Write',
          arguments: { file_path: at('yoi.config.ts'), content: "import './evil.ts';\nexport default {};\n" },
        },
      ],
      [
        'helper.ts',
        { name: 'Edit', arguments: { file_path: at('helper.ts'), old_string: 'be brief', new_string: 'be evil' } },
      ],
      ['dyn.ts', { name: 'Write', arguments: { file_path: at('dyn.ts'), content: EVIL } }],
      [
        '.yoi/sessions/ffffffff-ffff-7fff-bfff-ffffffffffff.jsonl',
        {
          name: 'Write',
          arguments: {
            file_path: at('.yoi/sessions/ffffffff-ffff-7fff-bfff-ffffffffffff.jsonl'),
            content: '{"type":"session_start"}\n',
          },
        },
      ],
      [
        '.yoi/permissions.json',
        { name: 'Write', arguments: { file_path: at('.yoi/permissions.json'), content: '{"rules":[]}' } },
      ],
      [
        'run/scope.lock',
        { name: 'Write', arguments: { file_path: path.join(run, 'scope.lock'), content: '{"allocations":[]}' } },
      ],
      ['run/other/sock', { name: 'Write', arguments: { file_path: path.join(run, 'other', 'sock'), content: '' } }],
      ['.yoirc.json', { name: 'Write', arguments: { file_path: at('.yoirc.json'), content: '{"name":"evil"}' } }],
      [
        'xdg/yoi/trust.json',
        { name: 'Write', arguments: { file_path: path.join(xdg, 'yoi', 'trust.json'), content: '{}' } },
      ],
    ];
    const script = [
      call('Read', { file_path: at('yoi.config.ts') }),
      call('Read', { file_path: at('helper.ts') }),
      ...attempts.map(([, c]) => ({ tool_calls: [c] })),
      call('Write', { file_path: at('evil.ts'), content: EVIL }), // an ordinary project file: allowed
      call('Read', { file_path: at('types.ts') }),
      call('Write', { file_path: at('types.ts'), content: 'export type T = number;\n' }), // types only: allowed
      call('Write', { file_path: at('.yoi/knowledge/note.md'), content: "the user's data\n" }),
      { text: 'done trying' },
    ];
    fs.writeFileSync(at('script.root.json'), JSON.stringify(script));
    const pod = await startPodProcess(['--name', 'root'], {
      cwd: dir,
      env: { YOI_RUNTIME_DIR: run, XDG_CONFIG_HOME: xdg },
    });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    const lockBefore = fs.readFileSync(path.join(run, 'scope.lock'), 'utf8');

    const c = await PodClient.connect({ socketPath: pod.socket, clientName: 'test/1' });
    cleanups.push(() => c.close());
    const events = recorder(c);
    const ended = runEnded(c, 60_000);
    await c.request({ method: 'run', params: { input: [text('take over')] } });
    expect((await ended).event).toBe('run_end');

    const results = events
      .filter((e) => e.event === 'tool_result')
      .map((e) => {
        const { summary, is_error } = e.data as { summary: string; is_error?: boolean };
        return { summary, is_error };
      });
    const refusals = results.slice(2, 2 + attempts.length);
    attempts.forEach(([p], i) => {
      const what = p.startsWith('.yoi/')
        ? 'its state'
        : p.startsWith('run')
          ? 'its runtime directory'
          : p.startsWith('xdg')
            ? "the user's yoi settings"
            : 'its config';
      const file = p.startsWith('run') ? path.join(run, p.slice(4)) : at(p);
      expect([p, refusals[i]]).toEqual([
        p,
        {
          summary: `cannot write ${file}: it is part of the pod's control plane (${what}); the pod's tools cannot write it`,
          is_error: true,
        },
      ]);
    });
    expect(results.slice(-4).map((r) => [r.summary.split(' ')[0], r.is_error])).toEqual([
      ['Created', false],
      ['Read', false],
      ['Overwrote', false],
      ['Created', false],
    ]);

    // Nothing of the control plane changed; the pod keeps serving.
    expect(fs.readFileSync(at('yoi.config.ts'), 'utf8')).toBe(CONFIG);
    expect(fs.readFileSync(at('helper.ts'), 'utf8')).toBe(HELPER);
    expect(fs.readFileSync(at('dyn.ts'), 'utf8')).toBe(DYN);
    expect(fs.readFileSync(at('types.ts'), 'utf8')).toBe('export type T = number;\n');
    expect(fs.readdirSync(at('.yoi/sessions')).filter((f) => f.startsWith('ffff'))).toEqual([]);
    expect(fs.existsSync(at('.yoi/permissions.json'))).toBe(false);
    expect(fs.existsSync(at('.yoirc.json'))).toBe(false);
    expect(fs.existsSync(path.join(run, 'other'))).toBe(false);
    expect(fs.existsSync(xdg)).toBe(false);
    expect(fs.readFileSync(path.join(run, 'scope.lock'), 'utf8')).toBe(lockBefore);
    expect(fs.readFileSync(at('.yoi/knowledge/note.md'), 'utf8')).toBe("the user's data\n");
    const again = runEnded(c, 30_000);
    await c.request({ method: 'run', params: { input: [text('still there?')] } });
    expect((await again).event).toBe('run_end');
  });
});
