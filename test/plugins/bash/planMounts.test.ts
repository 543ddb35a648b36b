import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { Scope, type ScopeConfigInput } from '../../../core/scope/Scope.js';
import { MAX_CHILD_DIRS, planMounts } from '../../../plugins/bash/planMounts.js';
import { tempTree } from './bashHarness.js';

const trees: ReturnType<typeof tempTree>[] = [];
afterEach(() => {
  for (const t of trees.splice(0)) t.remove();
});

function plan(
  files: Record<string, string>,
  scope: ScopeConfigInput | undefined,
  extra: { readOnly?: string[]; reopen?: string[]; hidden?: string[]; lock?: string[] } = {},
) {
  const t = tempTree(files);
  trees.push(t);
  const s = new Scope(scope, t.project);
  for (const l of extra.lock ?? []) s.lockWrite(t.at(l));
  const abs = (xs: string[] = []) => xs.map((x) => t.at(x));
  const result = planMounts({
    allow: s.allowRules,
    deny: s.denyRules,
    locks: s.locks,
    readOnly: abs(extra.readOnly),
    reopen: abs(extra.reopen),
    hidden: abs(extra.hidden),
  });
  // Paths relative to the project, for readable expectations.
  const rel = (p: string) =>
    p === t.project ? '.' : p.startsWith(t.project + '/') ? p.slice(t.project.length + 1) : p;
  return { t, root: result.root, mounts: result.mounts.map((m) => `${m.mode} ${m.kind} ${rel(m.path)}`) };
}

describe('planMounts', () => {
  it('the default scope: the project writable, its control plane read-only, knowledge reopened, runtime hidden', () => {
    const { root, mounts } = plan(
      { '.yoi/sessions/s.jsonl': '', '.yoi/knowledge/k.md': '', 'yoi.config.json': '{}', 'run/default/sock': '' },
      undefined,
      { readOnly: ['.yoi', '.yoi/sessions', 'yoi.config.json'], reopen: ['.yoi/knowledge'], hidden: ['run'] },
    );
    expect(root).toBe('read');
    // Shallowest first; the sessions folder needs no mount of its own inside the read-only .yoi.
    expect(mounts).toEqual([
      'write dir .',
      'read dir .yoi',
      'hidden dir run',
      'read file yoi.config.json',
      'write dir .yoi/knowledge',
    ]);
  });

  it('deny rules: read hides (files and folders alike), write leaves read-only; nothing is mounted inside a hidden region', () => {
    const { mounts } = plan(
      { 'secret.txt': 's', 'vault/inner/x': 'x', 'docs/a': 'a', 'docs/sub/b': 'b' },
      {
        allow: [
          { target: '.', permission: 'write' },
          { target: 'vault/inner', permission: 'write' },
        ],
        deny: [
          { target: 'secret.txt', permission: 'read' },
          { target: 'vault', permission: 'read' },
          { target: 'docs', permission: 'write' },
        ],
      },
    );
    expect(mounts).toEqual(['write dir .', 'read dir docs', 'hidden file secret.txt', 'hidden dir vault']);
  });

  it('locks of delegated regions are read-only, a non-recursive write rule stops at its subdirectories', () => {
    const locked = plan({ 'a/x': '', 'b/y': '' }, undefined, { lock: ['a'] });
    expect(locked.mounts).toEqual(['write dir .', 'read dir a']);
    const shallow = plan(
      { 'top/f': '', 'top/one/x': '', 'top/two/y': '' },
      { allow: [{ target: 'top', permission: 'write', recursive: false }] },
    );
    expect(shallow.mounts).toEqual(['write dir top', 'read dir top/one', 'read dir top/two']);
  });

  it('pins the directories above a restricted region inside a write region, so none can be renamed away', () => {
    const { mounts } = plan(
      { 'conf/deep/secret.env': 's', 'src/child/a': 'a', 'logs/sessions/s.jsonl': '' },
      { deny: [{ target: 'conf/deep/secret.env', permission: 'read' }] },
      { readOnly: ['logs/sessions'], lock: ['src/child'] },
    );
    expect(mounts).toEqual([
      'write dir .',
      'write dir conf',
      'write dir logs',
      'write dir src',
      'write dir conf/deep',
      'read dir logs/sessions',
      'read dir src/child',
      'hidden file conf/deep/secret.env',
    ]);
  });

  it('a non-recursive rule over more subdirectories than it examines takes the stricter mode for all of it', () => {
    const files = Object.fromEntries(Array.from({ length: MAX_CHILD_DIRS + 1 }, (_, i) => [`top/d${i}/x`, '']));
    const { mounts } = plan(files, { allow: [{ target: 'top', permission: 'write', recursive: false }] });
    expect(mounts).toEqual([]); // everything read-only: the same as the root
  });

  it('paths that do not exist are not mounted; a scope allowing / to be written makes the root writable', () => {
    const { t, mounts } = plan(
      {},
      { allow: [{ target: '.', permission: 'write' }], deny: [{ target: 'missing', permission: 'read' }] },
    );
    expect(mounts).toEqual(['write dir .']);
    expect(fs.existsSync(path.join(t.project, 'missing'))).toBe(false);
    const everything = plan({}, { allow: [{ target: '/', permission: 'write' }] });
    expect(everything.root).toBe('write');
    expect(everything.mounts).toEqual([]);
  });

  it("skips bwrap's own /dev, /proc and the private /tmp; a hidden path in /tmp needs no mount", () => {
    const { mounts } = plan(
      {},
      {
        allow: [
          { target: '.', permission: 'write' },
          { target: '/dev/shm', permission: 'write' },
          { target: '/proc', permission: 'write' },
        ],
      },
    );
    expect(mounts).toEqual(['write dir .']);
    const t = tempTree();
    trees.push(t);
    const tmpDir = fs.realpathSync(fs.mkdtempSync('/tmp/yoi-plan-'));
    try {
      fs.mkdirSync(path.join(tmpDir, 'shown'));
      fs.mkdirSync(path.join(tmpDir, 'run'));
      const s = new Scope({ allow: [{ target: path.join(tmpDir, 'shown'), permission: 'read' }] }, t.project);
      const inTmp = planMounts({
        allow: s.allowRules,
        deny: s.denyRules,
        locks: [],
        readOnly: [],
        reopen: [],
        hidden: [path.join(tmpDir, 'run')],
      });
      expect(inTmp.mounts).toEqual([{ path: path.join(tmpDir, 'shown'), mode: 'read', kind: 'dir' }]);
    } finally {
      fs.rmSync(tmpDir, { recursive: true, force: true });
    }
  });
});
