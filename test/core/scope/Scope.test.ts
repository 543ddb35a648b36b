import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Scope } from '../../../core/scope/Scope.js';
import { isYoiError } from '../../../core/errors/YoiError.js';

let root: string;
let project: string;
let outside: string;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-scope-')));
  project = path.join(root, 'project');
  outside = path.join(root, 'outside');
  for (const dir of ['src/deep', 'srcx', 'docs/guide', 'secret', 'vendor/lib'])
    fs.mkdirSync(path.join(project, dir), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'passwd'), 'root:x:0:0');
  fs.writeFileSync(path.join(project, 'src/a.ts'), 'a');
  fs.writeFileSync(path.join(project, 'srcx/b.ts'), 'b');
  fs.symlinkSync(outside, path.join(project, 'src/escape'));
  fs.symlinkSync(path.join(outside, 'passwd'), path.join(project, 'src/passwd-link'));
  fs.symlinkSync(path.join(project, 'src/a.ts'), path.join(outside, 'back-in'));
  fs.symlinkSync(path.join(outside, 'not-yet'), path.join(project, 'src/dangling'));
  fs.symlinkSync(path.join(project, 'src/loop-b'), path.join(project, 'src/loop-a'));
  fs.symlinkSync(path.join(project, 'src/loop-a'), path.join(project, 'src/loop-b'));
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const p = (...parts: string[]) => path.join(project, ...parts);
const rule = (target: string, permission: 'read' | 'write', recursive?: boolean) => ({ target, permission, recursive });

describe('Scope defaults', () => {
  it('grants recursive write to the base directory when no allow rule is configured', () => {
    for (const scope of [
      Scope.writable(project),
      new Scope(undefined, project),
      new Scope({ allow: [], deny: [] }, project),
    ]) {
      expect(scope.permissionAt(p('src/a.ts'))).toBe('write');
      expect(scope.permissionAt(project)).toBe('write');
      expect(scope.permissionAt(root)).toBeUndefined();
      expect(scope.canRead(path.join(outside, 'passwd'))).toBe(false);
    }
  });

  it('resolves relative query paths and relative targets against the base directory', () => {
    const scope = new Scope({ allow: [rule('src', 'read')] }, project);
    expect(scope.allowRules[0].target).toBe(p('src'));
    expect(scope.permissionAt('src/a.ts')).toBe('read');
    expect(scope.permissionAt('docs')).toBeUndefined();
  });

  it('prefers the absolute `path` of a resolved config rule over its target', () => {
    const scope = new Scope({ allow: [{ target: './whatever', path: p('docs'), permission: 'write' }] }, project);
    expect(scope.canWrite(p('docs/guide'))).toBe(true);
    expect(scope.canRead(p('src'))).toBe(false);
  });

  it('rejects a malformed rule with a config error naming the rule', () => {
    let caught: unknown;
    try {
      new Scope({ allow: [{ target: 'src', permission: 'admin' as never }] }, project);
    } catch (error) {
      caught = error;
    }
    expect(isYoiError(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/^scope\.allow\[0\]\.permission: /);
  });
});

describe('Scope lattice', () => {
  it('takes the highest matching allow permission', () => {
    const scope = new Scope({ allow: [rule(project, 'read'), rule(p('src'), 'write')] }, project);
    expect(scope.permissionAt(p('docs/guide'))).toBe('read');
    expect(scope.permissionAt(p('src/deep'))).toBe('write');
    expect(scope.canWrite(p('docs'))).toBe(false);
  });

  it('deny write caps at read, deny read removes access, the lowest deny wins', () => {
    const scope = new Scope(
      {
        allow: [rule(project, 'write')],
        deny: [
          rule(p('vendor'), 'write'),
          rule(p('secret'), 'read'),
          rule(p('docs'), 'write'),
          rule(p('docs/guide'), 'read'),
        ],
      },
      project,
    );
    expect(scope.permissionAt(p('vendor/lib'))).toBe('read');
    expect(scope.permissionAt(p('secret'))).toBeUndefined();
    expect(scope.permissionAt(p('secret/key'))).toBeUndefined();
    expect(scope.permissionAt(p('docs'))).toBe('read');
    expect(scope.permissionAt(p('docs/guide/x.md'))).toBeUndefined();
    expect(scope.permissionAt(p('src'))).toBe('write');
  });

  it('deny never grants: a deny outside every allow rule leaves no access', () => {
    const scope = new Scope({ allow: [rule(p('src'), 'read')], deny: [rule(p('docs'), 'write')] }, project);
    expect(scope.permissionAt(p('docs'))).toBeUndefined();
  });

  it('matches component-wise: /src does not cover /srcx', () => {
    const scope = new Scope({ allow: [rule(p('src'), 'write')] }, project);
    expect(scope.canRead(p('srcx/b.ts'))).toBe(false);
    expect(scope.canRead(p('srcx'))).toBe(false);
    expect(scope.canWrite(p('src/a.ts'))).toBe(true);
  });

  it('judges a path known to be canonical by the rules alone, without resolving it', () => {
    const scope = new Scope({ allow: [rule(project, 'write')], deny: [rule(p('secret'), 'read')] }, project);
    // `src/escape` is a link out of the project: resolved it is outside, taken as written it is not.
    expect(scope.permissionAt(p('src/escape/passwd'))).toBeUndefined();
    expect(scope.permissionAtCanonical(p('src/escape/passwd'))).toBe('write');
    expect(scope.permissionAtCanonical(p('secret/key'))).toBeUndefined();
    expect(scope.permissionAtCanonical(path.join(outside, 'passwd'))).toBeUndefined();
  });

  it('a non-recursive rule covers its target and direct children only', () => {
    const scope = new Scope({ allow: [rule(p('src'), 'write', false)] }, project);
    expect(scope.permissionAt(p('src'))).toBe('write');
    expect(scope.permissionAt(p('src/a.ts'))).toBe('write');
    expect(scope.permissionAt(p('src/deep'))).toBe('write');
    expect(scope.permissionAt(p('src/deep/x.ts'))).toBeUndefined();
    expect(scope.permissionAt(project)).toBeUndefined();
  });

  it('a non-recursive deny caps only the target and its direct children', () => {
    const scope = new Scope({ allow: [rule(project, 'write')], deny: [rule(p('src'), 'read', false)] }, project);
    expect(scope.permissionAt(p('src/a.ts'))).toBeUndefined();
    expect(scope.permissionAt(p('src/deep/x.ts'))).toBe('write');
  });
});

describe('Scope canonicalization', () => {
  const scope = () => new Scope({ allow: [rule(project, 'write')] }, project);

  it('resolves `..` before deciding: a/../../etc is outside', () => {
    expect(scope().canRead(p('src', 'a/../../../etc'))).toBe(false);
    expect(scope().canRead(p('src/deep/../../docs'))).toBe(true);
    expect(scope().check('src/a/../../..', 'read')).toEqual({ ok: false, reason: "outside the pod's scope" });
  });

  it('judges a non-existent path by its nearest existing ancestor', () => {
    expect(scope().permissionAt(p('new/dir/file.ts'))).toBe('write');
    expect(scope().check(p('new/file.ts'), 'write')).toEqual({ ok: true, path: p('new/file.ts'), permission: 'write' });
    expect(scope().canRead(path.join(outside, 'new/file'))).toBe(false);
  });

  it('denies a symlink in scope that leads outside, and anything through it', () => {
    expect(scope().canRead(p('src/escape'))).toBe(false);
    expect(scope().canRead(p('src/escape/passwd'))).toBe(false);
    expect(scope().canRead(p('src/escape/missing/deeper'))).toBe(false);
    expect(scope().canRead(p('src/passwd-link'))).toBe(false);
  });

  it('follows a dangling symlink to where a write would land', () => {
    expect(scope().canWrite(p('src/dangling'))).toBe(false);
  });

  it('allows a symlink outside scope that leads into scope (the target is what is read)', () => {
    const check = scope().check(path.join(outside, 'back-in'), 'read');
    expect(check).toEqual({ ok: true, path: p('src/a.ts'), permission: 'write' });
  });

  it('canonicalizes rule targets: a rule on a symlink covers where it leads', () => {
    const s = new Scope({ allow: [rule(p('src/escape'), 'read')] }, project);
    expect(s.allowRules[0].target).toBe(outside);
    expect(s.canRead(path.join(outside, 'passwd'))).toBe(true);
  });

  it('refuses unresolvable paths: symlink loops, NUL bytes, empty and overlong paths', () => {
    const s = scope();
    expect(s.check(p('src/loop-a'), 'read')).toEqual({ ok: false, reason: 'the path cannot be resolved' });
    expect(s.canRead(`${p('src/a.ts')}\0/../../etc`)).toBe(false);
    expect(s.canRead('')).toBe(false);
    expect(s.canRead(p('x'.repeat(1_000_000)))).toBe(false);
  });

  it('handles unicode and spaces in names', () => {
    fs.mkdirSync(p('données é/日本'), { recursive: true });
    expect(scope().check(p('données é/日本/メモ.md'), 'write')).toMatchObject({
      ok: true,
      path: p('données é/日本/メモ.md'),
    });
  });
});

describe('Scope.check', () => {
  it('says read-only when write is needed where only read is granted', () => {
    const scope = new Scope({ allow: [rule(project, 'read')] }, project);
    expect(scope.check(p('src/a.ts'), 'read')).toEqual({ ok: true, path: p('src/a.ts'), permission: 'read' });
    expect(scope.check(p('src/a.ts'), 'write')).toEqual({
      ok: false,
      reason: "read-only: outside the pod's write scope",
    });
  });
});

describe('Scope.lockWrite', () => {
  it('takes write access away from a region until released, keeping read', () => {
    const scope = Scope.writable(project);
    const lock = scope.lockWrite(p('src'));
    expect(scope.permissionAt(p('src/a.ts'))).toBe('read');
    expect(scope.permissionAt(p('docs'))).toBe('write');
    expect(scope.locks).toEqual([{ target: p('src'), permission: 'write', recursive: true }]);
    lock.release();
    lock.release();
    expect(scope.permissionAt(p('src/a.ts'))).toBe('write');
    expect(scope.locks).toEqual([]);
  });

  it('supports non-recursive locks and overlapping locks released independently', () => {
    const scope = Scope.writable(project);
    const a = scope.lockWrite(p('src'), { recursive: false });
    const b = scope.lockWrite(p('src'));
    expect(scope.permissionAt(p('src/deep/x'))).toBe('read');
    b.release();
    expect(scope.permissionAt(p('src/deep/x'))).toBe('write');
    expect(scope.permissionAt(p('src/a.ts'))).toBe('read');
    a.release();
    expect(scope.permissionAt(p('src/a.ts'))).toBe('write');
  });
});

describe('Scope.summary', () => {
  it('renders like yoi: readable rules, then writable ones, no trailing newline, denies omitted', () => {
    const scope = new Scope(
      {
        allow: [rule(p('src'), 'write'), rule(p('docs'), 'read', false), rule(p('vendor'), 'write', false)],
        deny: [rule(p('secret'), 'read')],
      },
      project,
    );
    scope.lockWrite(p('src'));
    expect(scope.summary()).toBe(
      [
        'Readable:',
        `  - ${p('src')}`,
        `  - ${p('docs')} [non-recursive]`,
        `  - ${p('vendor')} [non-recursive]`,
        'Writable:',
        `  - ${p('src')}`,
        `  - ${p('vendor')} [non-recursive]`,
      ].join('\n'),
    );
  });

  it('omits the Writable section when nothing is writable', () => {
    expect(new Scope({ allow: [rule(project, 'read')] }, project).summary()).toBe(`Readable:\n  - ${project}`);
  });

  it('renders the default scope', () => {
    expect(Scope.writable(project).summary()).toBe(`Readable:\n  - ${project}\nWritable:\n  - ${project}`);
  });
});
