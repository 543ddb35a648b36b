import type { PodPaths } from '../pod/runtimePaths.js';
import { isPidAlive } from '../pod/podFiles.js';
import type { PodEvent } from '../protocol/index.js';
import { Scope, type ScopeConfigInput, type ScopeLock } from '../scope/Scope.js';
import { adopt, delegate, findAllocation, registerTopLevel, reclaimStale, release, rulesOverlap } from './allocationTable.js';
import { ScopeLockFile } from './ScopeLockFile.js';
import type { Allocation, LockRule, ScopeLockTable } from './ScopeLockSchema.js';
import { SpawnedRegistry } from './SpawnedRegistry.js';

/** The `hello` client name a pod uses towards the pods it manages (`pod/<name>`). */
export function podClientName(podName: string): string {
  return `pod/${podName}`;
}

export interface PodTreeOptions {
  name: string;
  paths: PodPaths;
  /** The environment the pod was started with (children inherit it). */
  env: NodeJS.ProcessEnv;
  projectDir: string;
  /** The config's `scope` (used by a top-level pod; an adopted child gets its reservation). */
  configScope: ScopeConfigInput | undefined;
  /** Started by SpawnPod (`--adopt --callback SOCK`): take over the scope reserved by that pod. */
  adopt?: { callback: string };
}

/**
 * The pod's place in the pod tree (ARCHITECTURE §7), offered to plugins as `services.podTree`:
 * its allocation in `scope.lock` (registered at start, released at stop), the pods it manages
 * (`spawned_pods.json`), the parent it reports to, and its scope. While a child holds a region,
 * the pod's own tools cannot write there: the write rules of every allocation delegated from
 * this pod are runtime write locks on its scope, re-derived from the table after each
 * operation (so grandchildren reparented to this pod are locked too).
 */
export class PodTree {
  /** Startup notes (a registry that could not be read, pods restored). */
  readonly notes: string[] = [];
  readonly lockFile: ScopeLockFile;
  /** The pod this one reports to (its socket), when it was spawned by one. */
  readonly callback?: string;
  /** Name of the pod that spawned this one. */
  parentName?: string;
  scope!: Scope;
  registry!: SpawnedRegistry;
  private readonly locks = new Map<string, ScopeLock>();
  private reporter?: (event: PodEvent) => void;

  private constructor(private readonly opts: PodTreeOptions) {
    this.lockFile = ScopeLockFile.inBase(opts.paths.base);
    this.callback = opts.adopt?.callback;
  }

  /** Registers (or adopts) the pod's allocation, restores its registry and locks its children's regions. */
  static async open(opts: PodTreeOptions): Promise<PodTree> {
    const tree = new PodTree(opts);
    const loaded = SpawnedRegistry.load(opts.paths.spawnedPods);
    tree.registry = loaded.registry;
    if (loaded.note) tree.notes.push(loaded.note);
    const { name, paths, adopt: adopting } = opts;
    await tree.lockFile.update((table) => {
      reclaimStale(table, isPidAlive);
      if (adopting) {
        const own = adopt(table, name, process.pid, paths.socket, adopting.callback, isPidAlive);
        tree.parentName = own.delegated_from ?? undefined;
        tree.scope = new Scope({ allow: own.scope_allow, deny: own.scope_deny }, opts.projectDir);
      } else {
        tree.scope = new Scope(opts.configScope, opts.projectDir);
        registerTopLevel(table, { pod_name: name, pid: process.pid, socket: paths.socket, scope_allow: [...tree.scope.allowRules] });
      }
      tree.readopt(table);
      tree.syncLocks(table);
    });
    if (tree.registry.size > 0) tree.notes.push(`restored ${tree.registry.size} spawned pod(s) from ${paths.spawnedPods}`);
    return tree;
  }

  get name(): string {
    return this.opts.name;
  }

  get socket(): string {
    return this.opts.paths.socket;
  }

  get runtimeBase(): string {
    return this.opts.paths.base;
  }

  get env(): NodeJS.ProcessEnv {
    return this.opts.env;
  }

  /** Set by the reporting plugin: sends an event to this pod's parent. */
  setReporter(reporter: ((event: PodEvent) => void) | undefined): void {
    this.reporter = reporter;
  }

  /** Reports an event to the parent (no-op for a top-level pod or without a reporting plugin). */
  reportUpward(event: PodEvent): void {
    this.reporter?.(event);
  }

  /**
   * Reserves `rules` for a child about to start: the child's allocation holds the spawner's pid
   * until the child adopts it. Deny rules of this pod that touch the delegated regions go with
   * them, so the child is never wider than this pod. Throws the lock's YoiErrors.
   */
  reserve(child: string, socket: string, rules: LockRule[]): Promise<Allocation> {
    const denied = [...this.scope.denyRules];
    const inherited = denied.filter((d) => rules.some((r) => rulesOverlap(d, r)));
    return this.lockFile.update((table) => {
      reclaimStale(table, isPidAlive);
      const a = delegate(table, this.name, { pod_name: child, pid: process.pid, socket, scope_allow: rules, scope_deny: inherited }, denied);
      this.syncLocks(table);
      return structuredClone(a);
    });
  }

  /** Releases `name`'s allocation (its children go to its spawner); undefined if it had none. */
  release(name: string): Promise<Allocation | undefined> {
    return this.lockFile.update((table) => {
      const a = release(table, name);
      this.syncLocks(table);
      return a;
    });
  }

  /**
   * Forgets a pod this one manages: removes its record and releases its allocation (only if it
   * was recorded here or is a child of this pod in the lock). Returns the released allocation.
   */
  forget(name: string): Promise<Allocation | undefined> {
    const known = this.registry.remove(name);
    return this.lockFile.update((table) => {
      const a = findAllocation(table, name);
      if (!a || (!known && a.delegated_from !== this.name)) return undefined;
      release(table, name);
      this.syncLocks(table);
      return a;
    });
  }

  /** Releases the allocations of dead processes; returns them. */
  reclaimStale(): Promise<Allocation[]> {
    return this.lockFile.update((table) => {
      const gone = reclaimStale(table, isPidAlive);
      this.syncLocks(table);
      return gone;
    });
  }

  /** The lock table as it is now. */
  table(): Promise<ScopeLockTable> {
    return this.lockFile.read();
  }

  /**
   * Where this pod's reports go: its spawner's socket as scope.lock has it now, else the
   * `--callback` socket. After a failed delivery (`retrying`), allocations of dead processes
   * are reclaimed first: a pod whose parent died then reports to the pod it was handed to (the
   * dead parent's own spawner, which knows it from `scope_sub_delegated`).
   */
  async reportTarget(retrying: boolean): Promise<string | undefined> {
    if (!this.callback) return undefined;
    const parent = await this.lockFile.update((table) => {
      if (retrying) {
        reclaimStale(table, isPidAlive);
        this.syncLocks(table);
      }
      const own = findAllocation(table, this.name);
      const spawner = own?.delegated_from ? findAllocation(table, own.delegated_from) : undefined;
      return spawner && { name: spawner.pod_name, socket: spawner.socket };
    });
    if (parent) this.parentName = parent.name;
    return parent?.socket ?? this.callback;
  }

  /** Releases this pod's allocation. Returns whether the registry must be kept for the next start. */
  async close(): Promise<{ keepRegistry: boolean }> {
    await this.lockFile.update((table) => {
      const own = findAllocation(table, this.name);
      if (own && own.pid === process.pid) release(table, this.name);
    }).catch(() => undefined);
    for (const lock of this.locks.values()) lock.release();
    this.locks.clear();
    return { keepRegistry: this.registry.size > 0 };
  }

  /**
   * Pods of the registry that lost their spawner while this pod was down (reparented to nobody
   * or to a pod that is gone) come back under this pod.
   */
  private readopt(table: ScopeLockTable): void {
    for (const record of this.registry.list()) {
      const a = findAllocation(table, record.pod_name);
      if (!a || a.socket !== record.socket_path || a.delegated_from === this.name) continue;
      if (a.delegated_from === null || !findAllocation(table, a.delegated_from)) a.delegated_from = this.name;
    }
  }

  /** Makes the scope's runtime write locks match the write rules delegated from this pod. */
  private syncLocks(table: ScopeLockTable): void {
    const wanted = new Map<string, LockRule>();
    for (const a of table.allocations) {
      if (a.delegated_from !== this.name) continue;
      for (const r of a.scope_allow) if (r.permission === 'write') wanted.set(`${a.pod_name}\0${r.target}\0${r.recursive}`, r);
    }
    for (const [key, lock] of this.locks) {
      if (wanted.has(key)) continue;
      lock.release();
      this.locks.delete(key);
    }
    for (const [key, r] of wanted) if (!this.locks.has(key)) this.locks.set(key, this.scope.lockWrite(r.target, { recursive: r.recursive }));
  }
}
