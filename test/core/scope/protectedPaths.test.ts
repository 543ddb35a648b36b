import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Scope } from '../../../core/scope/Scope.js';

const project = () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-plane-')));
  for (const d of ['.yoi/sessions', '.yoi/knowledge', '.yoi/workflows', 'src'])
    fs.mkdirSync(path.join(dir, d), { recursive: true });
  fs.writeFileSync(path.join(dir, 'yoi.config.ts'), 'export default {}');
  fs.symlinkSync(path.join(dir, 'yoi.config.ts'), path.join(dir, 'src', 'cfg-link.ts'));
  return dir;
};
const reason = (what: string) => `it is part of the pod's control plane (${what}); the pod's tools cannot write it`;

describe('the control plane in the scope', () => {
  it('refuses writes to protected paths whatever the rules say, keeps them readable, and leaves exceptions as the scope says', () => {
    const dir = project();
    const scope = new Scope({ allow: [{ target: '/', permission: 'write' }] }, dir);
    scope.protect([
      { path: 'yoi.config.ts', what: 'its config' },
      { path: '.yoi', what: 'its state', except: ['.yoi/knowledge', '.yoi/workflows'] },
    ]);
    const at = (p: string) => path.join(dir, p);
    for (const p of [
      'yoi.config.ts',
      '.yoi',
      '.yoi/sessions/x.jsonl',
      '.yoi/permissions.json',
      '.yoi/new/deep',
      'src/cfg-link.ts',
    ]) {
      expect([p, scope.check(at(p), 'write')]).toEqual([
        p,
        { ok: false, reason: reason(p.startsWith('.yoi') ? 'its state' : 'its config') },
      ]);
      expect(scope.check(at(p), 'read')).toMatchObject({ ok: true, permission: 'read' });
      expect(scope.permissionAt(at(p))).toBe('read');
      expect(scope.canWrite(at(p))).toBe(false);
    }
    for (const p of ['.yoi/knowledge/note.md', '.yoi/workflows/w.md', 'src/a.ts', 'yoi.config.ts.bak', '.yoirc']) {
      expect([p, scope.check(at(p), 'write')]).toEqual([p, { ok: true, path: at(p), permission: 'write' }]);
    }
    // Outside the rules the scope's own reason comes first.
    const narrow = new Scope({ allow: [{ target: 'src', permission: 'read' }] }, dir);
    narrow.protect([{ path: 'src', what: 'its config' }]);
    expect(narrow.check(at('src/a.ts'), 'write')).toEqual({
      ok: false,
      reason: "read-only: outside the pod's write scope",
    });
    expect(narrow.check(at('.yoi/x'), 'write')).toEqual({ ok: false, reason: "outside the pod's scope" });
  });

  it('exposes the list read-only, canonical', () => {
    const dir = project();
    const scope = Scope.writable(dir);
    scope.protect([
      { path: 'src/cfg-link.ts', what: 'its config' },
      { path: 'not/yet', what: 'its state', except: ['not/yet/data'] },
    ]);
    expect(scope.protectedPaths).toEqual([
      { path: path.join(dir, 'yoi.config.ts'), what: 'its config', except: [] },
      { path: path.join(dir, 'not/yet'), what: 'its state', except: [path.join(dir, 'not/yet/data')] },
    ]);
    expect(Object.isFrozen(scope.protectedPaths)).toBe(true);
    expect(Object.isFrozen(scope.protectedPaths[0])).toBe(true);
    expect(() => (scope.protectedPaths as unknown[]).push({})).toThrow();
    expect(scope.protectedPaths).toHaveLength(2);
  });
});
