import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject } from '../support/startTestPod.js';
import { yoi } from '../support/runCli.js';

// `yoi config` and `yoi plugins` show the permission policy as it applies: the section parsed
// (defaults filled in, the built-in rules when no default is set) and the saved rules.

function project(permissions?: Record<string, unknown>, saved?: unknown) {
  const dir = fs.realpathSync(
    makeProject({
      'yoi.config.json': JSON.stringify({ model: { provider: 'echo' }, ...(permissions ? { permissions } : {}) }),
    }),
  );
  if (saved !== undefined) {
    fs.mkdirSync(path.join(dir, '.yoi'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dir, '.yoi', 'permissions.json'), JSON.stringify(saved), { mode: 0o600 });
  }
  return dir;
}

describe('the effective permission policy', () => {
  it('yoi config --json: the built-in policy without a section, the saved rules after it', () => {
    const dir = project(undefined, {
      version: 1,
      rules: [{ tool: 'Bash', exact: 'npm test', action: 'allow', by: 'yoi-cli', added_at: 1 }],
    });
    const r = yoi(['config', '--json'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).permissions).toEqual({
      default: 'allow',
      rules: [],
      builtin: [{ tool: 'Bash', action: 'ask' }],
      deadlineMs: 600_000,
      onDeadline: 'reject_once',
      saved: [{ tool: 'Bash', exact: 'npm test', action: 'allow', by: 'yoi-cli', added_at: 1 }],
      savedFile: path.join(dir, '.yoi', 'permissions.json'),
    });
  });

  it('yoi plugins: one policy line under yoi:permissions; a configured default drops the built-ins; an unusable saved file is named', () => {
    const dir = project(
      { default: 'ask', rules: [{ tool: 'Read', action: 'allow' }], deadlineMs: 60_000 },
      { version: 2 },
    );
    const r = yoi(['plugins'], { cwd: dir });
    expect(r.status).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.includes('policy:'));
    expect(line?.trim()).toMatch(
      new RegExp(
        `^policy: default ask · 1 rule · 0 saved rules \\(${path.join(dir, '.yoi', 'permissions.json').replaceAll('/', '\\/')}: ignored, .+\\) · asks wait 60s, then reject_once$`,
      ),
    );
    const json = JSON.parse(yoi(['plugins', '--json'], { cwd: dir }).stdout) as {
      name: string;
      policy?: Record<string, unknown>;
    }[];
    expect(json.find((p) => p.name === 'yoi:permissions')?.policy).toMatchObject({
      default: 'ask',
      builtin: [],
      saved: [],
      savedProblem: expect.any(String),
    });
  });

  it('bad values in the section are one line naming the key', () => {
    const dir = project({ default: 'maybe' });
    const r = yoi(['config'], { cwd: dir });
    expect(r.status).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('permissions.default');
  });
});
