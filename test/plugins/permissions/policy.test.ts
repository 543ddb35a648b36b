import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callSubject } from '../../../plugins/permissions/callSubject.js';
import { commandGlob } from '../../../plugins/permissions/commandGlob.js';
import { evaluatePolicy } from '../../../plugins/permissions/evaluatePolicy.js';
import { PolicySchema, type Rule } from '../../../plugins/permissions/permissionsConfig.js';

const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-perm-')));
fs.mkdirSync(path.join(project, 'src'));
fs.writeFileSync(path.join(project, 'src', 'a.ts'), '');
fs.symlinkSync('/etc/hostname', path.join(project, 'src', 'link'));
const base = { cwd: project, projectDir: project };
const policy = (section?: unknown) => PolicySchema.parse(section);
const verdict = (section: unknown, tool: string, args: unknown, saved: Rule[] = [], opts = {}) =>
  evaluatePolicy(policy(section), saved, { tool, subject: callSubject(tool, args, base) }, opts);

describe('the policy without a permissions section', () => {
  it('allows the file, search and pod tools and asks for Bash', () => {
    for (const [tool, args] of [
      ['Read', { file_path: 'src/a.ts' }],
      ['Write', { file_path: 'x', content: '' }],
      ['Edit', { file_path: 'x' }],
      ['Glob', { pattern: '*' }],
      ['Grep', { pattern: 'x' }],
      ['ListPods', {}],
      ['SpawnPod', { name: 'c' }],
      ['mcp__github__list', {}],
    ] as const) {
      expect(verdict(undefined, tool, args)).toMatchObject({ action: 'allow', source: 'default' });
    }
    expect(verdict(undefined, 'Bash', { command: 'ls' })).toMatchObject({
      action: 'ask',
      source: 'builtin',
      why: 'built-in rule {tool: Bash, action: ask}',
    });
    expect(policy(undefined)).toEqual({
      default: 'allow',
      rules: [],
      builtin: [{ tool: 'Bash', action: 'ask' }],
      deadlineMs: 600_000,
      onDeadline: 'reject_once',
    });
  });
});

describe('rules', () => {
  it('first match wins; configured rules come before the built-ins; a configured default drops the built-ins', () => {
    const rules = [
      { tool: 'Bash', match: 'npm test', action: 'allow' },
      { tool: 'Bash', match: 'npm *', action: 'deny' },
    ];
    expect(verdict({ rules }, 'Bash', { command: 'npm test' })).toMatchObject({ action: 'allow', source: 'config' });
    expect(verdict({ rules }, 'Bash', { command: '  npm test  ' }).action).toBe('allow');
    expect(verdict({ rules }, 'Bash', { command: 'npm publish' })).toMatchObject({
      action: 'deny',
      why: 'rule {tool: Bash, match: "npm *", action: deny} of the config',
    });
    expect(verdict({ rules }, 'Bash', { command: 'ls' })).toMatchObject({ action: 'ask', source: 'builtin' });
    expect(verdict({ default: 'allow', rules }, 'Bash', { command: 'ls' })).toMatchObject({
      action: 'allow',
      source: 'default',
    });
    expect(verdict({ default: 'deny' }, 'Read', { file_path: 'x' })).toMatchObject({ action: 'deny' });
  });

  it('tool is a glob over names; MCP tools match as <server>/<tool>', () => {
    const rules = [
      { tool: 'mcp__*', match: 'github/create_*', action: 'ask' },
      { tool: 'mcp__github__*', action: 'deny' },
    ];
    expect(verdict({ rules }, 'mcp__github__create_issue', {}).action).toBe('ask');
    expect(verdict({ rules }, 'mcp__github__delete_repo', {}).action).toBe('deny');
    expect(verdict({ rules }, 'mcp__fs__read', {}).action).toBe('allow');
    expect(callSubject('mcp__my_srv__do__it', {}, base)).toEqual({ kind: 'name', text: 'my_srv/do__it' });
  });

  it('exact compares the canonical path, the trimmed command line or the name', () => {
    expect(
      verdict({ rules: [{ tool: 'Read', exact: path.join(project, 'src/a.ts'), action: 'deny' }] }, 'Read', {
        file_path: './src//a.ts',
      }).action,
    ).toBe('deny');
    expect(
      verdict({ rules: [{ tool: 'Read', exact: 'src/a.ts', action: 'deny' }] }, 'Read', { file_path: 'src/a.ts' })
        .action,
    ).toBe('allow');
    expect(
      verdict({ rules: [{ tool: 'SpawnPod', exact: 'c*', action: 'deny' }] }, 'SpawnPod', { name: 'c*' }).action,
    ).toBe('deny');
    expect(
      verdict({ rules: [{ tool: 'SpawnPod', exact: 'c*', action: 'deny' }] }, 'SpawnPod', { name: 'cx' }).action,
    ).toBe('allow');
  });

  it('file globs: relative ones against the canonical path in the project, absolute ones against the canonical absolute path', () => {
    const rules = [{ tool: 'Read', match: 'src/**', action: 'deny' }];
    expect(verdict({ rules }, 'Read', { file_path: 'src/a.ts' }).action).toBe('deny');
    expect(verdict({ rules }, 'Read', { file_path: `${project}/src/../src/a.ts` }).action).toBe('deny');
    expect(verdict({ rules }, 'Read', { file_path: 'src/.env' }).action).toBe('deny'); // dotfiles too
    expect(verdict({ rules }, 'Read', { file_path: 'README.md' }).action).toBe('allow');
    // A link is judged where it leads: out of src/, so the relative rule does not cover it.
    expect(callSubject('Read', { file_path: 'src/link' }, base)).toEqual({ kind: 'path', absolute: '/etc/hostname' });
    expect(verdict({ rules }, 'Read', { file_path: 'src/link' }).action).toBe('allow');
    expect(
      verdict({ rules: [{ tool: 'Read', match: '/etc/**', action: 'deny' }] }, 'Read', { file_path: 'src/link' })
        .action,
    ).toBe('deny');
    // A relative glob never reaches outside the project.
    expect(
      verdict({ rules: [{ tool: 'Read', match: '**', action: 'deny' }] }, 'Read', { file_path: '/etc/hostname' })
        .action,
    ).toBe('allow');
    expect(
      verdict({ rules: [{ tool: 'Read', match: '~/**', action: 'deny' }] }, 'Read', {
        file_path: path.join(os.homedir(), 'x'),
      }).action,
    ).toBe('deny');
    expect(
      verdict({ rules: [{ tool: 'Grep', match: 'src', action: 'ask' }] }, 'Grep', { pattern: 'x', path: 'src' }).action,
    ).toBe('ask');
    expect(verdict({ rules: [{ tool: 'Glob', match: '.', action: 'ask' }] }, 'Glob', { pattern: '*' }).action).toBe(
      'ask',
    ); // the default path: the cwd
  });

  it('a wildcard allow never covers a Bash command line that chains or substitutes commands', () => {
    const rules = [{ tool: 'Bash', match: 'git *', action: 'allow' }];
    expect(verdict({ rules }, 'Bash', { command: 'git log src/a.ts' }).action).toBe('allow');
    for (const command of [
      'git log; rm -rf ~',
      'git log && curl x',
      'git log | sh',
      'git $(rm x)',
      'git `rm x`',
      'git log\nrm x',
      'git diff <(cat /etc/shadow)',
    ]) {
      expect(verdict({ rules }, 'Bash', { command }).action).toBe('ask');
    }
    // An exact rule (what allow_always saves) matches its one command, compound or not.
    const exact: Rule[] = [{ tool: 'Bash', exact: 'make && make test', action: 'allow' }];
    expect(verdict({}, 'Bash', { command: 'make && make test' }, exact).action).toBe('allow');
    expect(verdict({}, 'Bash', { command: 'make && make test; rm x' }, exact).action).toBe('ask');
    // Deny rules always apply.
    expect(
      verdict({ rules: [{ tool: 'Bash', match: '*rm -rf*', action: 'deny' }] }, 'Bash', { command: 'ls; rm -rf /' })
        .action,
    ).toBe('deny');
  });

  it('saved rules come before the config, except where the config denies; unsandboxed Bash always asks', () => {
    const saved: Rule[] = [
      { tool: 'Bash', match: 'make', action: 'allow' },
      { tool: 'Read', action: 'deny' },
    ];
    expect(verdict({}, 'Bash', { command: 'make' }, saved)).toMatchObject({ action: 'allow', source: 'saved' });
    expect(verdict({ default: 'allow' }, 'Read', { file_path: 'x' }, saved)).toMatchObject({
      action: 'deny',
      source: 'saved',
    });
    expect(verdict({ rules: [{ tool: 'Bash', action: 'deny' }] }, 'Bash', { command: 'make' }, saved)).toMatchObject({
      action: 'deny',
      source: 'config',
    });
    expect(verdict({ default: 'allow' }, 'Bash', { command: 'make' }, [], { unsandboxedBash: true })).toMatchObject({
      action: 'ask',
      source: 'sandbox',
    });
    expect(verdict({ default: 'deny' }, 'Bash', { command: 'make' }, [], { unsandboxedBash: true }).action).toBe(
      'deny',
    );
  });

  it('the section is validated: bad values name the key', () => {
    const bad = (section: unknown) => {
      const r = PolicySchema.safeParse(section);
      return r.success ? 'ok' : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    };
    expect(bad({ default: 'maybe' })).toMatch(/^default: /);
    expect(bad({ rules: [{ tool: 'Bash', action: 'allow', extra: 1 }] })).toMatch(/rules\.0/);
    expect(bad({ deadlineMs: 0 })).toMatch(/^deadlineMs/);
    expect(bad({ onDeadline: 'allow_always' })).toMatch(/^onDeadline/);
    expect(bad({ rules: [{ tool: 'Read', match: '*a*b*c', action: 'deny' }] })).toMatch(
      /rules\.0\.match: at most 2 `\*` per path segment/,
    );
    expect(bad({ rules: [{ tool: 'Read', match: 'src/*a*b/*c*d/x', action: 'deny' }] })).toBe(
      'rules.0.match: at most one path segment with 2 `*` (`*a*b` and `*c*d`): more can take seconds to match',
    );
    expect(bad({ rules: [{ tool: 'Read', match: '**/a/**/b/**', action: 'deny' }] })).toMatch(
      /rules\.0\.match: at most 2 `\*\*` in a glob/,
    );
    expect(bad({ rules: [{ tool: 'Read', match: '**/src/*_*/*.ts', action: 'deny' }] })).toBe('ok');
    expect(bad({ rules: [{ tool: 'Bash', match: '*a*b*c*d', action: 'deny' }] })).toBe('ok'); // command globs are linear
    expect(bad({ rules: [{ tool: 'Bash', match: 'a', exact: 'a', action: 'deny' }] })).toMatch(
      /rules\.0\.exact: give `match` or `exact`, not both/,
    );
  });
});

describe('command globs', () => {
  it('* matches anything (slashes, newlines), ? one character, \\ escapes', () => {
    expect(commandGlob('git *').test('git log a/b/c')).toBe(true);
    expect(commandGlob('*').test('a\nb')).toBe(true);
    expect(commandGlob('a?c').test('abc')).toBe(true);
    expect(commandGlob('a?c').test('ac')).toBe(false);
    expect(commandGlob('a\\*').test('a*')).toBe(true);
    expect(commandGlob('a\\*').test('ab')).toBe(false);
    expect(commandGlob('npm test').test('npm test --watch')).toBe(false);
  });

  it('agrees with a reference matcher on random inputs', () => {
    const reference = (p: string, s: string) =>
      new RegExp(
        `^${[...p].map((c) => (c === '*' ? '[\\s\\S]*' : c === '?' ? '[\\s\\S]' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`,
        'u',
      ).test(s);
    const alphabet = fc.constantFrom('a', 'b', '/', ' ', '*', '?');
    fc.assert(
      fc.property(
        fc.string({ unit: alphabet, maxLength: 8 }),
        fc.string({ unit: fc.constantFrom('a', 'b', '/', ' '), maxLength: 10 }),
        (p, s) => {
          expect(commandGlob(p).test(s)).toBe(reference(p, s));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('stays fast on a long command line with many stars (no backtracking blow-up)', () => {
    const g = commandGlob('*a*a*a*a*a*b');
    const long = 'a'.repeat(20_000);
    const started = process.hrtime.bigint();
    expect(g.test(long)).toBe(false);
    // Not a timing assertion on the machine: a generous bound that a backtracking matcher misses by orders of magnitude.
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(20);
  });
});
