import { describe, expect, it } from '@jest/globals';
import {
  adopt,
  ancestry,
  conflictOwner,
  coversFully,
  delegate,
  registerTopLevel,
  reclaimStale,
  release,
  rulesOverlap,
} from '../../../../plugins/podtree/tree/allocationTable.js';
import type { LockRule, ScopeLockTable } from '../../../../plugins/podtree/tree/ScopeLockSchema.js';

const w = (target: string, recursive = true): LockRule => ({ target, permission: 'write', recursive });
const r = (target: string, recursive = true): LockRule => ({ target, permission: 'read', recursive });
const alive = (pids: number[]) => (pid: number) => pids.includes(pid);

/** root (pid 1) writes /p; child (2) holds /p/src from root; grandchild (3) holds /p/src/a from child. */
function tree(): ScopeLockTable {
  const t: ScopeLockTable = { allocations: [] };
  registerTopLevel(t, { pod_name: 'root', pid: 1, socket: '/run/root/sock', scope_allow: [w('/p'), r('/docs')] });
  delegate(t, 'root', { pod_name: 'child', pid: 2, socket: '/run/child/sock', scope_allow: [w('/p/src')] });
  delegate(t, 'child', {
    pod_name: 'grandchild',
    pid: 3,
    socket: '/run/grandchild/sock',
    scope_allow: [w('/p/src/a')],
  });
  return t;
}

describe('rule regions', () => {
  it.each([
    [w('/p'), w('/p/x'), true],
    [w('/p/x'), w('/p'), true],
    [w('/src'), w('/srcx'), false], // component-wise
    [w('/p', false), w('/p/x'), true], // the recursive rule's root is a direct child
    [w('/p', false), w('/p/x/y'), false], // grandchildren are outside a non-recursive rule
    [w('/p', false), w('/p/x', false), true],
    [w('/p/a', false), w('/p/b', false), false], // siblings: neither covers the other
    [w('/'), w('/anything'), true],
  ])('overlap %j %j → %s', (a, b, expected) => {
    expect(rulesOverlap(a, b)).toBe(expected);
    expect(rulesOverlap(b, a)).toBe(expected);
  });

  it('a rule is covered only by an allow rule with at least its permission and its whole region', () => {
    expect(coversFully(w('/p'), w('/p/x'))).toBe(true);
    expect(coversFully(w('/p'), r('/p/x'))).toBe(true);
    expect(coversFully(r('/p'), w('/p/x'))).toBe(false);
    expect(coversFully(w('/p/x'), w('/p'))).toBe(false);
    expect(coversFully(w('/p', false), w('/p', false))).toBe(true);
    expect(coversFully(w('/p', false), w('/p'))).toBe(false);
    expect(coversFully(w('/p', false), w('/p/x', false))).toBe(false);
  });
});

describe('delegation', () => {
  it('records the tree and finds the deepest conflicting owner', () => {
    const t = tree();
    expect(ancestry(t, 'grandchild')).toEqual(['grandchild', 'child', 'root']);
    expect(conflictOwner(t, w('/p/src/a/deep'), new Set())).toBe('grandchild');
    expect(conflictOwner(t, w('/p/src/b'), new Set())).toBe('child');
    expect(conflictOwner(t, w('/p/other'), new Set())).toBeUndefined(); // top-level pods are not exclusive
    expect(conflictOwner(t, r('/p/src'), new Set(['child', 'grandchild']))).toBeUndefined();
  });

  it("refuses rules outside the spawner's scope, and write rules over another pod's region", () => {
    const t = tree();
    const child =
      (name: string, rules: LockRule[], denied: LockRule[] = []) =>
      () =>
        delegate(t, 'root', { pod_name: name, pid: 9, socket: `/run/${name}/sock`, scope_allow: rules }, denied);
    expect(child('x', [w('/elsewhere')])).toThrow(
      "requested scope `/elsewhere` is not within spawner `root`'s effective scope",
    );
    expect(child('x', [w('/docs')])).toThrow("requested scope `/docs` is not within spawner `root`'s effective scope"); // read only
    expect(child('x', [w('/p/.git')], [w('/p/.git')])).toThrow('is not within spawner `root`');
    expect(child('x', [r('/p/.git')], [w('/p/.git')])).not.toThrow(); // deny write leaves read
    expect(child('y', [w('/p/src/a/b')])).toThrow('requested scope `/p/src/a/b` conflicts with pod `grandchild`');
    expect(child('y', [w('/p')])).toThrow('requested scope `/p` conflicts with pod `grandchild`');
    expect(child('y', [r('/p/src')])).not.toThrow(); // reads never conflict
    expect(child('x', [w('/p/docs')])).toThrow('pod name `x` is already registered');
    expect(() => delegate(t, 'nobody', { pod_name: 'z', pid: 9, socket: '/s', scope_allow: [w('/p')] })).toThrow(
      'pod `nobody` is not registered',
    );
    // A pod may sub-delegate inside its own region (its own line is exempt).
    expect(() =>
      delegate(t, 'child', { pod_name: 'g2', pid: 4, socket: '/run/g2/sock', scope_allow: [w('/p/src/b')] }),
    ).not.toThrow();
    expect(t.allocations.find((a) => a.pod_name === 'g2')).toMatchObject({
      delegated_from: 'child',
      origin: 'delegated',
    });
  });

  it('two children of one spawner cannot share a write region', () => {
    const t: ScopeLockTable = { allocations: [] };
    registerTopLevel(t, { pod_name: 'root', pid: 1, socket: '/s/root', scope_allow: [w('/p')] });
    delegate(t, 'root', { pod_name: 'a', pid: 1, socket: '/s/a', scope_allow: [w('/p/lib')] });
    expect(() => delegate(t, 'root', { pod_name: 'b', pid: 1, socket: '/s/b', scope_allow: [w('/p/lib/x')] })).toThrow(
      'requested scope `/p/lib/x` conflicts with pod `a`',
    );
  });

  it('top-level pods may share a project; a same-name leftover of the same socket is replaced and keeps its children', () => {
    const t = tree();
    registerTopLevel(t, { pod_name: 'peer', pid: 5, socket: '/run/peer/sock', scope_allow: [w('/p')] });
    expect(() =>
      registerTopLevel(t, { pod_name: 'peer', pid: 6, socket: '/elsewhere/sock', scope_allow: [w('/p')] }),
    ).toThrow('pod name `peer` is already registered');
    registerTopLevel(t, { pod_name: 'root', pid: 7, socket: '/run/root/sock', scope_allow: [w('/p')] });
    expect(t.allocations.filter((a) => a.pod_name === 'root')).toEqual([
      expect.objectContaining({ pid: 7, origin: 'started' }),
    ]);
    expect(t.allocations.find((a) => a.pod_name === 'child')?.delegated_from).toBe('root');
  });
});

describe('release and reclaim', () => {
  it("release reparents the children to the released pod's spawner", () => {
    const t = tree();
    expect(release(t, 'child')?.pod_name).toBe('child');
    expect(t.allocations.find((a) => a.pod_name === 'grandchild')?.delegated_from).toBe('root');
    expect(release(t, 'child')).toBeUndefined();
    release(t, 'root');
    // An orphan stays exclusive: another delegation still cannot take its region.
    const g = t.allocations.find((a) => a.pod_name === 'grandchild')!;
    expect(g).toMatchObject({ delegated_from: null, origin: 'delegated' });
    registerTopLevel(t, { pod_name: 'other', pid: 8, socket: '/s/other', scope_allow: [w('/p')] });
    expect(() => delegate(t, 'other', { pod_name: 'o1', pid: 8, socket: '/s/o1', scope_allow: [w('/p/src')] })).toThrow(
      'conflicts with pod `grandchild`',
    );
  });

  it('reclaims the allocations of dead processes, chains included, and reparents the survivors', () => {
    const t = tree();
    const gone = reclaimStale(t, alive([1, 3]));
    expect(gone.map((a) => a.pod_name)).toEqual(['child']);
    expect(t.allocations.find((a) => a.pod_name === 'grandchild')?.delegated_from).toBe('root');
    const all = reclaimStale(t, alive([3]));
    expect(all.map((a) => a.pod_name)).toEqual(['root']);
    expect(t.allocations).toEqual([expect.objectContaining({ pod_name: 'grandchild', delegated_from: null })]);
    t.allocations[0].pid = 0; // pid 0 is never a live pod
    expect(reclaimStale(t, () => true)).toHaveLength(1);
  });
});

describe('adopt', () => {
  it('lets only the child started for that reservation take it over', () => {
    const t = tree();
    delegate(t, 'root', { pod_name: 'kid', pid: 1, socket: '/run/kid/sock', scope_allow: [w('/p/kid')] });
    const live = alive([1, 42, 43]);
    expect(() => adopt(t, 'nobody', 42, '/run/nobody/sock', '/run/root/sock', live)).toThrow(
      'no scope is reserved for pod `nobody`',
    );
    expect(() => adopt(t, 'kid', 42, '/run/kid/sock', '/run/child/sock', live)).toThrow(
      'was not reserved by the pod at /run/child/sock',
    );
    expect(() => adopt(t, 'kid', 42, '/other/sock', '/run/root/sock', live)).toThrow('is for the socket /run/kid/sock');
    expect(adopt(t, 'kid', 42, '/run/kid/sock', '/run/root/sock', live).pid).toBe(42);
    expect(() => adopt(t, 'kid', 43, '/run/kid/sock', '/run/root/sock', live)).toThrow('is already held by process 42');
  });
});
