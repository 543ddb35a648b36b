import path from 'node:path';
import type { Allocation, LockRule, ScopeLockTable } from './ScopeLockSchema.js';
import { isWithin, ruleMatches, YoiError } from '../../../core/api.js';

/** `read` < `write`. */
const PERMISSION_RANK = { read: 0, write: 1 } as const;

/**
 * The scope-lock algorithms, as pure functions over the parsed table (the caller holds the file
 * lock, reads, applies one of these, writes). Rule regions: a recursive rule covers its target
 * and everything below it, a non-recursive one its target and the target's direct children;
 * paths compare component-wise (`/src` does not contain `/srcx`).
 */

/** Whether the regions of two rules share a path. */
export function rulesOverlap(a: LockRule, b: LockRule): boolean {
  if (a.recursive && b.recursive) return isWithin(a.target, b.target) || isWithin(b.target, a.target);
  if (a.recursive) return recursiveMeetsFlat(a, b);
  if (b.recursive) return recursiveMeetsFlat(b, a);
  return a.target === b.target || path.dirname(a.target) === b.target || path.dirname(b.target) === a.target;
}

function recursiveMeetsFlat(r: LockRule, flat: LockRule): boolean {
  return isWithin(flat.target, r.target) || path.dirname(r.target) === flat.target;
}

/** Whether `allow` grants everything `rule` asks for (permission and region). */
export function coversFully(allow: LockRule, rule: LockRule): boolean {
  if (PERMISSION_RANK[allow.permission] < PERMISSION_RANK[rule.permission]) return false;
  if (allow.recursive) return isWithin(rule.target, allow.target);
  return !rule.recursive && rule.target === allow.target;
}

export function findAllocation(table: ScopeLockTable, name: string): Allocation | undefined {
  return table.allocations.find((a) => a.pod_name === name);
}

/** `name`, its spawner, the spawner's spawner... (stops at a missing link or a cycle). */
export function ancestry(table: ScopeLockTable, name: string): string[] {
  const chain: string[] = [];
  for (
    let at: string | null | undefined = name;
    at && !chain.includes(at);
    at = findAllocation(table, at)?.delegated_from
  )
    chain.push(at);
  return chain;
}

/**
 * The pod holding an exclusive (delegated) write region that overlaps `rule`, the deepest in
 * the delegation tree when several do; pods in `exempt` (the spawner's own line) are skipped.
 */
export function conflictOwner(table: ScopeLockTable, rule: LockRule, exempt: ReadonlySet<string>): string | undefined {
  let owner: string | undefined;
  let depth = -1;
  for (const a of table.allocations) {
    if (a.origin !== 'delegated' || exempt.has(a.pod_name)) continue;
    if (!a.scope_allow.some((r) => r.permission === 'write' && rulesOverlap(r, rule))) continue;
    const d = ancestry(table, a.pod_name).length;
    if (d > depth) [owner, depth] = [a.pod_name, d];
  }
  return owner;
}

export interface NewAllocation {
  pod_name: string;
  pid: number;
  socket: string;
  scope_allow: LockRule[];
  scope_deny?: LockRule[];
}

/**
 * Registers a pod started by a user. Top-level pods never conflict (several may work in one
 * project); a leftover allocation of the same name and socket (this pod's previous run, whose
 * socket nobody listens on) is replaced and keeps its children.
 */
export function registerTopLevel(table: ScopeLockTable, entry: NewAllocation): Allocation {
  const old = findAllocation(table, entry.pod_name);
  if (old && old.socket !== entry.socket) throw registered(entry.pod_name);
  if (old) table.allocations.splice(table.allocations.indexOf(old), 1);
  const allocation: Allocation = {
    ...entry,
    scope_deny: entry.scope_deny ?? [],
    delegated_from: null,
    origin: 'started',
  };
  table.allocations.push(allocation);
  return allocation;
}

/**
 * Reserves `entry` for a child of `spawner`. Each rule must be granted by one of the spawner's
 * allow rules and not fall inside one of its deny rules (`denied`: the spawner's own, from its
 * config or inherited); each write rule must not overlap an exclusive region held by a pod
 * outside the spawner's line (another child, another tree).
 */
export function delegate(
  table: ScopeLockTable,
  spawner: string,
  entry: NewAllocation,
  denied: readonly LockRule[] = [],
): Allocation {
  if (findAllocation(table, entry.pod_name)) throw registered(entry.pod_name);
  const owner = findAllocation(table, spawner);
  if (!owner) throw new YoiError('YOI_ERR_POD_UNREGISTERED', `pod \`${spawner}\` is not registered`);
  for (const rule of entry.scope_allow) {
    const granted = owner.scope_allow.some((a) => coversFully(a, rule));
    const refused = denied.some(
      (d) => ruleMatches(d, rule.target) && PERMISSION_RANK[d.permission] <= PERMISSION_RANK[rule.permission],
    );
    if (!granted || refused) {
      throw new YoiError(
        'YOI_ERR_SCOPE_NOT_SUBSET',
        `requested scope \`${rule.target}\` is not within spawner \`${spawner}\`'s effective scope`,
      );
    }
  }
  const exempt = new Set(ancestry(table, spawner));
  for (const rule of entry.scope_allow) {
    if (rule.permission !== 'write') continue;
    const competitor = conflictOwner(table, rule, exempt);
    if (competitor)
      throw new YoiError(
        'YOI_ERR_SCOPE_CONFLICT',
        `requested scope \`${rule.target}\` conflicts with pod \`${competitor}\``,
      );
  }
  const allocation: Allocation = {
    ...entry,
    scope_deny: entry.scope_deny ?? [],
    delegated_from: spawner,
    origin: 'delegated',
  };
  table.allocations.push(allocation);
  return allocation;
}

/**
 * A child started with `--adopt` takes over its reservation: only the reservation made for its
 * socket by the pod at `callback`, and only while it is unclaimed (still held by the spawner's
 * pid, or by a dead process). The original let any caller take any allocation.
 */
export function adopt(
  table: ScopeLockTable,
  name: string,
  pid: number,
  socket: string,
  callback: string,
  isAlive: (pid: number) => boolean,
): Allocation {
  const a = findAllocation(table, name);
  if (!a)
    throw new YoiError(
      'YOI_ERR_ADOPT',
      `no scope is reserved for pod \`${name}\`: pods started with --adopt are started by SpawnPod`,
    );
  const spawner = a.delegated_from !== null ? findAllocation(table, a.delegated_from) : undefined;
  if (!spawner || spawner.socket !== callback) {
    throw new YoiError(
      'YOI_ERR_ADOPT',
      `the scope reserved for pod \`${name}\` was not reserved by the pod at ${callback}`,
    );
  }
  if (a.socket !== socket)
    throw new YoiError(
      'YOI_ERR_ADOPT',
      `the scope reserved for pod \`${name}\` is for the socket ${a.socket}, not ${socket}`,
    );
  if (a.pid !== pid && a.pid !== spawner.pid && isAlive(a.pid)) {
    throw new YoiError('YOI_ERR_ADOPT', `the scope reserved for pod \`${name}\` is already held by process ${a.pid}`);
  }
  a.pid = pid;
  return a;
}

/** Removes `name`; its children are reparented to its own spawner. Returns what was removed. */
export function release(table: ScopeLockTable, name: string): Allocation | undefined {
  const a = findAllocation(table, name);
  if (!a) return undefined;
  table.allocations.splice(table.allocations.indexOf(a), 1);
  for (const child of table.allocations) if (child.delegated_from === name) child.delegated_from = a.delegated_from;
  return a;
}

/** Releases every allocation whose process is gone (pid ≤ 0 counts as gone). */
export function reclaimStale(table: ScopeLockTable, isAlive: (pid: number) => boolean): Allocation[] {
  const dead = table.allocations.filter((a) => a.pid <= 0 || !isAlive(a.pid)).map((a) => a.pod_name);
  return dead.map((name) => release(table, name)).filter((a): a is Allocation => a !== undefined);
}

function registered(name: string): YoiError {
  return new YoiError('YOI_ERR_POD_REGISTERED', `pod name \`${name}\` is already registered`);
}
