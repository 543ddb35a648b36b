import fs from 'node:fs';
import path from 'node:path';
import type { ControlPlane } from './controlPlane.js';
import { isWithin, type ResolvedRule, ruleMatches } from '../../core/api.js';

/** How a region appears inside the sandbox. */
export type MountMode = 'write' | 'read' | 'hidden';

/** One mount over the read-only root, in the order bwrap must apply them. */
export interface Mount {
  readonly path: string;
  readonly mode: MountMode;
  readonly kind: 'dir' | 'file';
}

/** The rules the sandbox reproduces: the scope's (canonical) and the pod's control plane. */
export interface SandboxLayout extends ControlPlane {
  readonly allow: readonly ResolvedRule[];
  readonly deny: readonly ResolvedRule[];
  /** Runtime write locks (regions delegated to child pods). */
  readonly locks: readonly ResolvedRule[];
}

/** The sandbox's mounts: the root (read-only unless the scope lets the pod write `/`), then the rest. */
export interface MountPlan {
  readonly root: 'read' | 'write';
  readonly mounts: readonly Mount[];
}

/** Direct subdirectories examined under a non-recursive rule's target; beyond, the stricter mode wins. */
export const MAX_CHILD_DIRS = 256;

/** Mounted by bwrap itself (`--dev`, `--proc`, the private `/tmp`): rules do not remount them. */
const OWN_MOUNTS = ['/dev', '/proc'];
const PRIVATE_TMP = '/tmp';

const STRICTNESS: Readonly<Record<MountMode, number>> = { write: 0, read: 1, hidden: 2 };

/**
 * Turns the scope into mounts. The effective permission only changes at rule targets (and, for
 * a non-recursive rule, at its target's subdirectories), so each such boundary gets a mount
 * with the mode of what lies inside it, shallowest first (a later mount overrides an earlier one
 * below its path). A mount that would not change anything is left out; nothing is mounted
 * inside a hidden region. Everything the scope does not grant stays readable, read-only:
 * - write where the scope grants write, except in the control plane (knowledge and workflow
 *   folders excepted);
 * - hidden under a `deny read` rule (a non-recursive one hides its whole subtree) and in the
 *   control plane's hidden paths;
 * - read elsewhere.
 * Paths that do not exist are not mounted (a path created later falls under its parent's mount).
 * The directories above a restricted region are pinned in place (see `pins`).
 */
export function planMounts(layout: SandboxLayout): MountPlan {
  const { allow, deny, locks, readOnly, reopen, hidden } = layout;
  const rules = [...allow, ...deny, ...locks];
  const modeAt = (p: string): MountMode => {
    if (hidden.some((h) => isWithin(p, h))) return 'hidden';
    if (deny.some((r) => r.permission === 'read' && (isWithin(p, r.target) || ruleMatches(r, p)))) return 'hidden';
    const writable =
      allow.some((r) => r.permission === 'write' && ruleMatches(r, p)) &&
      !deny.some((r) => ruleMatches(r, p)) &&
      !locks.some((r) => ruleMatches(r, p));
    return writable && !isProtected(p, readOnly, reopen) ? 'write' : 'read';
  };
  // What a mount at `dir` decides: the entries inside it (a child no rule names).
  const contents = (dir: string) => modeAt(path.join(dir, '\0'));

  const boundaries = new Map<string, { strict: boolean }>();
  const add = (p: string, strict = false) =>
    boundaries.set(p, { strict: strict || (boundaries.get(p)?.strict ?? false) });
  for (const p of [...rules.map((r) => r.target), ...readOnly, ...reopen, ...hidden]) add(p);
  for (const rule of rules) {
    if (rule.recursive) continue;
    const children = childDirs(rule.target);
    if (children === undefined) add(rule.target, true);
    else for (const child of children) add(child);
  }

  const root = contents('/') === 'write' ? 'write' : 'read';
  const mounted: { path: string; mode: MountMode | 'scratch' }[] = [
    { path: '/', mode: root },
    { path: PRIVATE_TMP, mode: 'scratch' },
  ];
  const mounts: Mount[] = [];
  const ordered = [...boundaries.keys()]
    .filter((p) => p !== '/' && p !== PRIVATE_TMP && !OWN_MOUNTS.some((own) => isWithin(p, own)))
    .sort(byDepth);
  for (const p of ordered) {
    const stats = statOf(p);
    if (!stats) continue;
    const kind = stats.isDirectory() ? 'dir' : 'file';
    let mode = kind === 'dir' ? contents(p) : modeAt(p);
    if (kind === 'dir' && boundaries.get(p)!.strict) mode = stricter(mode, contents(path.join(p, '\0')));
    const around = nearest(mounted, p);
    // Nothing of the host shows inside a hidden region or the private /tmp unless mounted there.
    if (around.mode === 'hidden' || around.mode === mode || (around.mode === 'scratch' && mode === 'hidden')) continue;
    mounted.push({ path: p, mode });
    mounts.push({ path: p, mode, kind });
  }
  return { root, mounts: [...mounts, ...pins(mounts, mounted)].sort((a, b) => byDepth(a.path, b.path)) };
}

/**
 * A restricted region is only as safe as its path: a directory above it that sits in a writable
 * directory could be renamed, carrying the region away on the host (the mount moves along), and
 * a look-alike be created in its place for the next command. A mount point cannot be renamed
 * (EBUSY), so each such directory is mounted over itself, with the mode it already has.
 */
function pins(mounts: readonly Mount[], mounted: readonly { path: string; mode: MountMode | 'scratch' }[]): Mount[] {
  const taken = new Set([...mounted.map((m) => m.path), ...OWN_MOUNTS]);
  const out = new Map<string, Mount>();
  for (const m of mounts) {
    if (m.mode === 'write') continue;
    for (let dir = path.dirname(m.path); dir !== '/'; dir = path.dirname(dir)) {
      if (taken.has(dir) || out.has(dir) || nearest(mounted, path.dirname(dir)).mode !== 'write') continue;
      const mode = nearest(mounted, dir).mode;
      if (mode === 'write' || mode === 'read') out.set(dir, { path: dir, mode, kind: 'dir' });
    }
  }
  return [...out.values()];
}

/** In the control plane: the deepest read-only or reopened path containing `p` is a read-only one. */
function isProtected(p: string, readOnly: readonly string[], reopen: readonly string[]): boolean {
  let best: { len: number; ro: boolean } | undefined;
  for (const [list, ro] of [
    [readOnly, true],
    [reopen, false],
  ] as const) {
    for (const q of list) {
      if (isWithin(p, q) && (!best || q.length > best.len || (q.length === best.len && ro)))
        best = { len: q.length, ro };
    }
  }
  return best?.ro ?? false;
}

function nearest(mounted: readonly { path: string; mode: MountMode | 'scratch' }[], p: string) {
  let best = mounted[0];
  for (const m of mounted) if (isWithin(p, m.path) && m.path.length >= best.path.length) best = m;
  return best;
}

/** Direct subdirectories (not links) of `dir`; undefined when there are more than MAX_CHILD_DIRS. */
function childDirs(dir: string): string[] | undefined {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => path.join(dir, e.name));
  return dirs.length > MAX_CHILD_DIRS ? undefined : dirs;
}

function statOf(p: string): fs.Stats | undefined {
  try {
    return fs.statSync(p);
  } catch {
    return undefined;
  }
}

function stricter(a: MountMode, b: MountMode): MountMode {
  return STRICTNESS[a] >= STRICTNESS[b] ? a : b;
}

/** Shallowest first (a mount overrides the ones above it), then by path. */
function byDepth(a: string, b: string): number {
  return depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0);
}

function depth(p: string): number {
  return p === '/' ? 0 : p.split('/').length - 1;
}
