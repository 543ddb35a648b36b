import path from 'node:path';
import { readOwnFile } from '../core/pod/trustedPath.js';
import type { PodListing } from '../client/listPods.js';
import { ScopeLockTableSchema, type LockRule } from '../plugins/podtree/tree/ScopeLockSchema.js';
import { SpawnedPodsFileSchema } from '../plugins/podtree/tree/SpawnedRegistry.js';

/** A pod as `yoi pod list` shows it: where it sits in the pod tree and the scope it holds. */
export interface PodTreeEntry extends PodListing {
  /** The pod that spawned it (scope.lock's `delegated_from`, else a parent's spawned_pods.json). */
  parent: string | null;
  children: string[];
  /** Its allocation in scope.lock: allow rules, and the denies inherited from its spawner. */
  scope: { allow: LockRule[]; deny: LockRule[] } | null;
}

/**
 * Joins the runtime directory's pods with `<base>/scope.lock` (parents and scopes) and each
 * pod's `spawned_pods.json` (children whose allocation is gone). Read without the lock: both
 * files are replaced atomically; an unreadable one just leaves its part out.
 */
export function podTree(pods: readonly PodListing[], base: string): PodTreeEntry[] {
  const allocations = readJson(path.join(base, 'scope.lock'), (v) => ScopeLockTableSchema.parse(v).allocations) ?? [];
  const byName = new Map(allocations.map((a) => [a.pod_name, a]));
  const recordedParent = new Map<string, string>();
  for (const pod of pods) {
    const records =
      readJson(path.join(base, pod.name, 'spawned_pods.json'), (v) => SpawnedPodsFileSchema.parse(v)) ?? [];
    for (const r of records) recordedParent.set(r.pod_name, r.via ?? pod.name);
  }
  const entries: PodTreeEntry[] = pods.map((p) => {
    const a = byName.get(p.name);
    return {
      ...p,
      parent: a?.delegated_from ?? recordedParent.get(p.name) ?? null,
      children: [],
      scope: a ? { allow: a.scope_allow, deny: a.scope_deny } : null,
    };
  });
  const listed = new Map(entries.map((e) => [e.name, e]));
  for (const e of entries) if (e.parent) listed.get(e.parent)?.children.push(e.name);
  for (const e of entries) e.children.sort();
  return entries;
}

/** The tree as text: roots first, children indented under their parent with their scope. */
export function podTreeLines(entries: readonly PodTreeEntry[]): string[] {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const rows: string[][] = [];
  const visit = (e: PodTreeEntry, prefix: string, branch: string, seen: Set<string>) => {
    if (seen.has(e.name)) return; // a cycle in a damaged file: show each pod once
    seen.add(e.name);
    const orphan = e.parent && !byName.has(e.parent) ? ` (spawned by ${e.parent}, not running)` : '';
    // A cell must be a string (its width is measured): an unknown state shows as `?`.
    const state = typeof e.state === 'string' ? e.state : '?';
    rows.push([
      `${prefix}${branch}${e.name}`,
      e.untrusted ? `untrusted (${e.untrusted})` : e.alive ? state : 'stopped (stale)',
      `pid ${e.pid ?? '-'}`,
      `${scopeText(e.scope)}${orphan}`,
    ]);
    const kids = e.children.map((c) => byName.get(c)).filter((c): c is PodTreeEntry => c !== undefined);
    const inner = prefix + (branch === '' ? '' : branch === '└─ ' ? '   ' : '│  ');
    kids.forEach((k, i) => visit(k, inner, i === kids.length - 1 ? '└─ ' : '├─ ', seen));
  };
  const seen = new Set<string>();
  const roots = entries.filter((e) => !e.parent || !byName.has(e.parent));
  for (const r of roots) visit(r, '', '', seen);
  for (const e of entries) visit(e, '', '', seen); // anything only reachable through a cycle
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => [...r[i]].length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i < 3 ? cell + ' '.repeat(widths[i] - [...cell].length) : cell))
      .join('  ')
      .trimEnd(),
  );
}

function scopeText(scope: PodTreeEntry['scope']): string {
  if (!scope) return 'scope: -';
  const rule = (r: LockRule) => `${r.permission} ${r.target}${r.recursive ? '' : ' (non-recursive)'}`;
  const allow = scope.allow.length > 0 ? scope.allow.map(rule).join(', ') : 'none';
  return `scope: ${allow}${scope.deny.length > 0 ? `; deny ${scope.deny.map(rule).join(', ')}` : ''}`;
}

/** A runtime file, only if it is the user's own (another user's is left out, never read). */
function readJson<T>(file: string, parse: (value: unknown) => T): T | undefined {
  try {
    const text = readOwnFile(file);
    return text === undefined || text.trim() === '' ? undefined : parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}
