import { afterEach, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempProject } from '../support/tempProject.js';
import { BIN, runCli } from './runCli.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string };
// Configs in temp dirs import the built package by path (the CLI also serves `import 'yoi'`).
const dist = path.join(repo, 'dist', 'index.js');

const projects: ReturnType<typeof tempProject>[] = [];
function project(files: Record<string, string> = {}) {
  const p = tempProject({ 'package.json': '{"name":"demo","private":true}', ...files });
  projects.push(p);
  return p;
}
afterEach(() => projects.splice(0).forEach((p) => p.remove()));

/**
 * Every failure is exactly one `yoi: ... [YOI_ERR_*]` line on stderr, nothing on stdout, and a
 * non-zero code; `errorCode` is the code the line must end with.
 */
function expectOneLineError(result: ReturnType<typeof runCli>, message: string | RegExp, errorCode: string, code = 1) {
  expect(result.stdout).toBe('');
  expect(result.stderr.endsWith('\n')).toBe(true);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  const line = result.stderr.trimEnd();
  expect(line.endsWith(` [${errorCode}]`)).toBe(true);
  const text = line.slice(0, -` [${errorCode}]`.length);
  expect(text).toMatch(typeof message === 'string' ? new RegExp(`^${escape(message)}$`) : message);
  expect(result.code).toBe(code);
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('yoi --version / --help', () => {
  it('prints the version line, for --version and -v', () => {
    const p = project();
    for (const flag of ['--version', '-v']) {
      const r = runCli([flag], { cwd: p.root });
      expect(r).toEqual({
        code: 0,
        stderr: '',
        stdout: `yoi/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`,
      });
    }
  });

  it('prints the root help, identical to what oclif renders', () => {
    const p = project();
    const fast = runCli(['--help'], { cwd: p.root });
    expect(fast.code).toBe(0);
    expect(fast.stdout).toMatch(/^USAGE\n {2}\$ yoi \[COMMAND\]$/m);
    for (const command of ['config', 'init', 'plugins'])
      expect(fast.stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'));
    expect(fast.stdout).toContain(`yoi/${pkg.version} ${process.platform}-${process.arch} node-${process.version}`);
    // OCLIF_COLUMNS makes bin/run.js hand the request to oclif itself.
    const oclif = runCli(['--help'], { cwd: p.root, env: { OCLIF_COLUMNS: '80' } });
    expect(oclif.stdout).toBe(fast.stdout);
    expect(runCli([], { cwd: p.root }).stdout).toBe(fast.stdout);
    expect(runCli(['-h'], { cwd: p.root }).stdout).toBe(fast.stdout);
  });

  it('shows help for a command', () => {
    const r = runCli(['config', '--help'], { cwd: project().root });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('$ yoi config [--config FILE] [--json]');
  });
});

describe('yoi config', () => {
  it('prints the resolved config as JSON', () => {
    const p = project({
      'yoi.config.ts':
        "export default { name: 'demo', model: { provider: 'echo', apiKey: 'sk-1' }, sessions: { dir: 'logs' } };",
      'sub/.keep': '',
    });
    const r = runCli(['config', '--json'], { cwd: p.path('sub') });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({
      configPath: p.path('yoi.config.ts'),
      projectDir: p.root,
      cwd: p.path('sub'),
      name: 'demo',
      model: { provider: 'echo', apiKey: '***' },
      modelIsDefault: false,
      sessions: { dir: p.path('logs') },
      maxTurns: 50,
    });
    expect(json.plugins).toEqual(expect.arrayContaining([expect.any(String)]));
  });

  it('prints a readable form, and says when no model is configured', () => {
    const p = project({ '.yoirc.yaml': 'name: rc\n' });
    const r = runCli(['config'], { cwd: p.root });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`# config: ${p.path('.yoirc.yaml')}\n`);
    expect(r.stdout).toContain('# no model configured: using the offline echo provider\n');
    expect(r.stdout).toContain('\nname: rc\n');
  });

  it('takes --config and YOI_CONFIG', () => {
    const p = project({ 'a.json': '{"name":"from-flag"}', 'b.json': '{"name":"from-env"}' });
    expect(JSON.parse(runCli(['config', '--json'], { cwd: p.root, env: { YOI_CONFIG: 'b.json' } }).stdout).name).toBe(
      'from-env',
    );
    expect(
      JSON.parse(
        runCli(['config', '--json', '--config', 'a.json'], { cwd: p.root, env: { YOI_CONFIG: 'b.json' } }).stdout,
      ).name,
    ).toBe('from-flag');
  });
});

describe('yoi plugins', () => {
  it("lists each plugin with the hooks and kinds it taps, for plugins made with the config's 'yoi' import", () => {
    const p = project({
      'yoi.config.ts': [
        "import { definePlugin } from 'yoi';",
        "import { defaultPlugins } from 'yoi/plugins';",
        "const jira = definePlugin({ name: 'acme:jira', apply(host) {",
        "  host.hooks.resolveSegment.for('jira').tapPromise('acme:jira', async () => undefined);",
        "  host.hooks.afterTurn.tapPromise('acme:jira', async () => {});",
        '} });',
        "const idle = definePlugin({ name: 'acme:idle', apply() {} });",
        'export default { plugins: [...defaultPlugins(), jira(), idle()] };',
      ].join('\n'),
    });
    const r = runCli(['plugins', '--json'], { cwd: p.root });
    expect(r.stderr).toBe('');
    const plugins = JSON.parse(r.stdout) as { name: string; hooks: string[] }[];
    expect(plugins.slice(-2).map(({ name, hooks }) => ({ name, hooks }))).toEqual([
      { name: 'acme:jira', hooks: ['resolveSegment(jira)', 'afterTurn'] },
      { name: 'acme:idle', hooks: [] },
    ]);
    const text = runCli(['plugins'], { cwd: p.root }).stdout;
    expect(text).toMatch(/^acme:jira +resolveSegment\(jira\), afterTurn$/m);
    expect(text).toMatch(/^acme:idle +\(no taps\)$/m);
    expect(text).toMatch(/^segment kinds: .*jira/m);
    // What plugins share: config keys, services, declared kinds with their sigils.
    expect(text).toMatch(/^ +config limits\.fileRefBytes · provides yoi:file-ref-limit · kinds file_ref \(@\)$/m);
    expect(text).toMatch(/^ +config knowledge · uses yoi:file-ref-limit · kinds knowledge_ref \(#\)$/m);
    expect(text).toMatch(/^segment kinds: text, paste, file_ref \(@\), knowledge_ref \(#\), workflow_invoke \(\/\)/m);
    const json = plugins as unknown as { name: string; provides: string[]; uses: string[] }[];
    expect(json.find((x) => x.name === 'yoi:spawn-pod')?.uses).toEqual(['yoi:pod-tree', 'yoi:remote-pods']);
    expect(json.find((x) => x.name === 'yoi:pod-tree')?.provides).toEqual(['yoi:pod-tree']);
  });

  it('works with plugins imported from the package by path too', () => {
    const p = project({
      'yoi.config.mjs': `import { definePlugin } from ${JSON.stringify(dist)};\nexport default { plugins: [definePlugin({ name: 'acme:p', apply(h) { h.hooks.providers.for('fake').tap('acme:p', () => undefined); } })()], model: { provider: 'fake' } };`,
    });
    const r = runCli(['plugins', '--json'], { cwd: p.root });
    expect(JSON.parse(r.stdout)).toEqual([
      { name: 'acme:p', hooks: ['providers(fake)'], provides: [], uses: [], segmentKinds: [], protocol: [] },
    ]);
    expect(JSON.parse(runCli(['config', '--json'], { cwd: p.root }).stdout).plugins).toEqual(['acme:p']);
  });
});

describe('yoi init', () => {
  it('writes a yoi.config.ts that loads, then refuses to overwrite it', () => {
    const p = project();
    const first = runCli(['init'], { cwd: p.root });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(p.path('yoi.config.ts'), 'utf8')).toContain('satisfies YoiConfig');
    const config = runCli(['config', '--json'], { cwd: p.root });
    expect(config.stderr).toBe('');
    expect(JSON.parse(config.stdout)).toMatchObject({ configPath: p.path('yoi.config.ts'), name: 'default' });
    expectOneLineError(
      runCli(['init'], { cwd: p.root }),
      'yoi: yoi.config.ts already exists: edit it, or remove it to start over',
      'YOI_ERR_CONFIG_EXISTS',
    );
  });

  it('refuses when package.json has a "yoi" key', () => {
    const p = project({ 'package.json': '{"yoi":{}}' });
    expectOneLineError(
      runCli(['init'], { cwd: p.root }),
      'yoi: package.json already has a "yoi" key: edit it, or remove it to start over',
      'YOI_ERR_CONFIG_EXISTS',
    );
  });
});

describe('errors are one line on stderr with a non-zero exit code', () => {
  it('for a config with a bad key', () => {
    const p = project({ 'yoi.config.ts': "export default { model: { provider: 'echo' }, maxTurns: 'many' };" });
    expectOneLineError(
      runCli(['config'], { cwd: p.root }),
      'yoi: yoi.config.ts: maxTurns: expected number',
      'YOI_ERR_CONFIG',
    );
  });

  it('for a config with a syntax error or a missing import', () => {
    const p = project({ 'yoi.config.ts': "export default {\n  name: 'x'\n  maxTurns: 3,\n};" });
    expectOneLineError(
      runCli(['config'], { cwd: p.root }),
      /^yoi: yoi\.config\.ts:3:2: syntax error: /,
      'YOI_ERR_CONFIG',
    );
    p.write('yoi.config.ts', "import { x } from './missing.js';\nexport default x;");
    expectOneLineError(
      runCli(['plugins'], { cwd: p.root }),
      "yoi: yoi.config.ts: failed to load: Cannot find module './missing.js'",
      'YOI_ERR_CONFIG',
    );
  });

  it('for an unknown provider, naming the ones available', () => {
    const p = project({ 'yoi.config.json': '{"model":{"provider":"nope"}}' });
    expectOneLineError(
      runCli(['config'], { cwd: p.root }),
      /^yoi: yoi\.config\.json: model\.provider: unknown provider "nope" \(available: .*\)$/,
      'YOI_ERR_UNKNOWN_PROVIDER',
    );
  });

  it('for a missing --config file', () => {
    expectOneLineError(
      runCli(['config', '--config', 'nope.ts'], { cwd: project().root }),
      'yoi: config file not found: nope.ts (from --config)',
      'YOI_ERR_CONFIG_NOT_FOUND',
    );
  });

  it('for an unknown flag, an unexpected argument or an unknown command (usage errors exit 2)', () => {
    const cwd = project().root;
    expectOneLineError(
      runCli(['config', '--bogus'], { cwd }),
      'yoi: Nonexistent flag: --bogus (see: yoi config --help)',
      'YOI_ERR_USAGE',
      2,
    );
    expectOneLineError(
      runCli(['plugins', 'extra'], { cwd }),
      /^yoi: .*extra.* \(see: yoi (plugins )?--help\)$/,
      'YOI_ERR_USAGE',
      2,
    );
    expectOneLineError(
      runCli(['nosuch'], { cwd }),
      'yoi: unknown command "nosuch" (see: yoi --help)',
      'YOI_ERR_USAGE',
      2,
    );
  });
});

describe('finding your way', () => {
  it('an unknown command names the closest one, in one usage line', () => {
    const cwd = project().root;
    expectOneLineError(
      runCli(['pod', 'strat'], { cwd }),
      'yoi: unknown command "pod strat"; did you mean "pod start"? (see: yoi pod --help)',
      'YOI_ERR_USAGE',
      2,
    );
    expectOneLineError(
      runCli(['sedn', 'hello', 'there'], { cwd }),
      'yoi: unknown command "sedn hello there"; did you mean "send"? (see: yoi --help)',
      'YOI_ERR_USAGE',
      2,
    );
    expectOneLineError(
      runCli(['hstory'], { cwd }),
      'yoi: unknown command "hstory"; did you mean "history"? (see: yoi --help)',
      'YOI_ERR_USAGE',
      2,
    );
    // With --json the same error is a JSON object on stdout.
    const json = runCli(['hstory', '--json'], { cwd });
    expect(json).toMatchObject({ code: 2, stderr: '' });
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        code: 'YOI_ERR_USAGE',
        message: 'unknown command "hstory"; did you mean "history"? (see: yoi --help)',
        exit_code: 2,
      },
    });
  });

  it('yoi pod --help describes the topic and its commands', () => {
    const r = runCli(['pod', '--help'], { cwd: project().root });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Start, stop, list and inspect pods: long-lived processes, each serving one agent session/,
    );
    for (const command of ['start', 'stop', 'list', 'status'])
      expect(r.stdout).toMatch(new RegExp(`^ {2}pod ${command} `, 'm'));
  });

  it('shell completion: bash completes commands and flags', () => {
    const p = project();
    const env = { XDG_CACHE_HOME: p.path('cache'), HOME: p.path('home') };
    const setup = runCli(['autocomplete', 'script', 'bash'], { cwd: p.root, env });
    expect(setup.code).toBe(0);
    const complete = (...words: string[]) =>
      spawnSync(
        'bash',
        [
          '-c',
          `${setup.stdout.trim()}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _yoi_autocomplete; echo "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8', env: { ...process.env, ...env } },
      ).stdout.trim();
    expect(runCli(['autocomplete', '--refresh-cache'], { cwd: p.root, env }).code).toBe(0);
    expect(complete('yoi', 'sen')).toBe('send');
    expect(complete('yoi', 'send', '--se')).toBe('--segment');
    expect(complete('yoi', 'pod', 'st').split(' ').sort()).toEqual(['start', 'status', 'stop']);
  });

  it('typos inside model are named with a did-you-mean hint, as top-level keys are', () => {
    const p = project();
    for (const [model, message] of [
      [{ provider: 'scripted', scrpt: 's.json' }, 'model.scrpt: unknown key (did you mean "script"?)'],
      [
        { provider: 'openai-compatible', baseUrl: 'http://localhost:1/v1', model: 'm' },
        'model.baseUrl: unknown key (did you mean "baseURL"?)',
      ],
      [{ provider: 'echo', permision: 'write' }, 'model.permision: unknown key'],
    ] as const) {
      p.write('yoi.config.json', JSON.stringify({ model }));
      const r = runCli(['pod', 'start'], { cwd: p.root, env: { YOI_RUNTIME_DIR: p.path('run') } });
      expectOneLineError(
        r,
        new RegExp(
          `^yoi: cannot start provider "${model.provider}": plugin yoi:${model.provider} failed in providers\\(${model.provider}\\): ${escape(message)}( \\(and 1 more\\))?$`,
        ),
        'YOI_ERR_PROVIDER',
      );
    }
  });
});

it('runs from any directory (bin path is absolute)', () => {
  expect(path.isAbsolute(BIN)).toBe(true);
});
