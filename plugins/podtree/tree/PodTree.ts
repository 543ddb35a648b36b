import path from 'node:path';
import {
  adopt,
  delegate,
  findAllocation,
  registerTopLevel,
  reclaimStale,
  release,
  rulesOverlap,
} from './allocationTable.js';
import { ScopeLockFile } from './ScopeLockFile.js';
import type { Allocation, LockRule, ScopeLockTable } from './ScopeLockSchema.js';
import { SpawnedRegistry } from './SpawnedRegistry.js';
import {
  isPidAlive,
  type PodEvent,
  type RuntimeDir,
  type Scope,
  type ScopeConfigInput,
  type ScopeLock,
} from '../../../core/api.js';

/** How a pod started by SpawnPod is launched (`launch.adopt`, from `--adopt --callback`). */
export interface AdoptLaunch {
  /** The spawner's socket: the pod reports there and takes over the scope reserved for it. */
  readonly callback: string;
  /** Added to the pod's system prompt. */
  readonly instruction?: string;
  /** Presented with every report, so the parent knows it is really this pod. */
  readonly secret?: string;
}

/**
 * The pod's place in the pod tree (ARCHITECTURE §7), the `yoi:pod-tree` service: its allocation
 * in `scope.lock` (registered at start, released at stop), the pods it manages
 * (`spawned_pods.json`), the parent it reports to, and its scope. While a child holds a region,
 * the pod's own tools cannot write there: the write rules of every allocation delegated from
 * this pod are runtime write locks on its scope, re-derived from the table after each
 * operation (so grandchildren reparented to this pod are locked too).
 */
export class PodTree {
  /** Startup notes (a registry that could not be read, pods restored). */
  readonly notes: string[] = [];
  /** Name of the pod that spawned this one. */
  parentName?: string;
  #name = '';
  #runtime!: RuntimeDir;
  #adopt?: AdoptLaunch;
  #lockFile!: ScopeLockFile;
  #registry!: SpawnedRegistry;
  #scope?: Scope;
  #own?: Allocation;
  readonly #locks = new Map<string, ScopeLock>();
  #reporter?: (event: PodEvent, id?: string) => void;

  /**
   * At `resolveScope`: loads the registry and, for an adopted pod, takes over the allocation
   * reserved for its socket; returns that allocation's rules (undefined for a top-level pod).
   */
  async open(
    name: string,
    runtime: RuntimeDir,
    adopting: AdoptLaunch | undefined,
  ): Promise<ScopeConfigInput | undefined> {
    this.#name = name;
    this.#runtime = runtime;
    this.#adopt = adopting;
    this.#lockFile = ScopeLockFile.inBase(runtime.base);
    const loaded = SpawnedRegistry.load(this.spawnedPodsFile);
    this.#registry = loaded.registry;
    if (loaded.note) this.notes.push(loaded.note);
    if (!adopting) return undefined;
    const own = await this.#lockFile.update((table) => {
      reclaimStale(table, isPidAlive);
      return structuredClone(adopt(table, name, process.pid, runtime.socket, adopting.callback, isPidAlive));
    });
    this.#own = own;
    this.parentName = own.delegated_from ?? undefined;
    return { allow: own.scope_allow, deny: own.scope_deny };
  }

  /** At `podInit`: registers a top-level pod, takes back orphaned children and locks their regions. */
  async attach(scope: Scope): Promise<void> {
    this.#scope = scope;
    await this.#lockFile.update((table) => {
      if (!this.#own)
        registerTopLevel(table, {
          pod_name: this.#name,
          pid: process.pid,
          socket: this.socket,
          scope_allow: [...scope.allowRules],
        });
      // What a kill left: a reservation this pod's previous process made for a child that never adopted it.
      reclaimStale(table, isPidAlive);
      this.readopt(table);
      this.syncLocks(table);
    });
    if (this.#registry.size > 0)
      this.notes.push(`restored ${this.#registry.size} spawned pod(s) from ${this.spawnedPodsFile}`);
  }

  get opened(): boolean {
    return this.#scope !== undefined;
  }

  get name(): string {
    return this.#name;
  }

  get socket(): string {
    return this.#runtime.socket;
  }

  get runtimeBase(): string {
    return this.#runtime.base;
  }

  get spawnedPodsFile(): string {
    return path.join(this.#runtime.dir, 'spawned_pods.json');
  }

  get registry(): SpawnedRegistry {
    return this.#registry;
  }

  get lockFile(): ScopeLockFile {
    return this.#lockFile;
  }

  /** The pod this one reports to (its socket), when it was spawned by one. */
  get callback(): string | undefined {
    return this.#adopt?.callback;
  }

  /** The secret this pod presents to its parent. */
  get secret(): string | undefined {
    return this.#adopt?.secret;
  }

  /** The secret a pod this one manages presents with its reports (recorded before it starts). */
  secretOf(name: string): string | undefined {
    return this.#registry.get(name)?.secret;
  }

  /** Set by the reporting plugin: sends an event to this pod's parent. */
  setReporter(reporter: ((event: PodEvent, id?: string) => void) | undefined): void {
    this.#reporter = reporter;
  }

  /**
   * Reports an event to the parent (no-op for a top-level pod or without a reporting plugin).
   * `id`: its request id, when it must be the same each time (a report re-sent for one received).
   */
  reportUpward(event: PodEvent, id?: string): void {
    this.#reporter?.(event, id);
  }

  /**
   * Reserves `rules` for a child about to start: the child's allocation holds the spawner's pid
   * until the child adopts it. Deny rules of this pod that touch the delegated regions go with
   * them, so the child is never wider than this pod. Throws the lock's YoiErrors.
   */
  reserve(child: string, socket: string, rules: LockRule[]): Promise<Allocation> {
    const denied = [...this.scope.denyRules];
    const inherited = denied.filter((d) => rules.some((r) => rulesOverlap(d, r)));
    return this.#lockFile.update((table) => {
      reclaimStale(table, isPidAlive);
      const a = delegate(
        table,
        this.#name,
        { pod_name: child, pid: process.pid, socket, scope_allow: rules, scope_deny: inherited },
        denied,
      );
      this.syncLocks(table);
      return structuredClone(a);
    });
  }

  /** Releases `name`'s allocation (its children go to its spawner); undefined if it had none. */
  release(name: string): Promise<Allocation | undefined> {
    return this.#lockFile.update((table) => {
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
    const known = this.#registry.remove(name);
    return this.#lockFile.update((table) => {
      const a = findAllocation(table, name);
      if (!a || (!known && a.delegated_from !== this.#name)) return undefined;
      release(table, name);
      this.syncLocks(table);
      return a;
    });
  }

  /** Releases the allocations of dead processes; returns them. */
  reclaimStale(): Promise<Allocation[]> {
    return this.#lockFile.update((table) => {
      const gone = reclaimStale(table, isPidAlive);
      this.syncLocks(table);
      return gone;
    });
  }

  /** The lock table as it is now. */
  table(): Promise<ScopeLockTable> {
    return this.#lockFile.read();
  }

  /**
   * Where this pod's reports go: its spawner's socket as scope.lock has it now, else the
   * `--callback` socket. After a failed delivery (`retrying`), allocations of dead processes
   * are reclaimed first: a pod whose parent died then reports to the pod it was handed to (the
   * dead parent's own spawner, which knows it from `scope_sub_delegated`).
   */
  async reportTarget(retrying: boolean): Promise<string | undefined> {
    if (!this.callback) return undefined;
    const parent = await this.#lockFile.update((table) => {
      if (retrying) {
        reclaimStale(table, isPidAlive);
        this.syncLocks(table);
      }
      const own = findAllocation(table, this.#name);
      const spawner = own?.delegated_from ? findAllocation(table, own.delegated_from) : undefined;
      return spawner && { name: spawner.pod_name, socket: spawner.socket };
    });
    if (parent) this.parentName = parent.name;
    return parent?.socket ?? this.callback;
  }

  /** Releases this pod's allocation and locks; the registry is kept for the next start while it holds records. */
  async close(): Promise<void> {
    if (!this.#lockFile) return;
    await this.#lockFile
      .update((table) => {
        const own = findAllocation(table, this.#name);
        if (own && own.pid === process.pid) release(table, this.#name);
      })
      .catch(() => undefined);
    for (const lock of this.#locks.values()) lock.release();
    this.#locks.clear();
    // The pods this one manages outlive it: their registry waits for its next start.
    if (this.#registry.size > 0) this.#runtime.keep(this.spawnedPodsFile);
  }

  private get scope(): Scope {
    if (!this.#scope) throw new Error('the pod tree is not attached to a scope yet');
    return this.#scope;
  }

  /**
   * Pods of the registry that lost their spawner while this pod was down (reparented to nobody
   * or to a pod that is gone) come back under this pod.
   */
  private readopt(table: ScopeLockTable): void {
    for (const record of this.#registry.list()) {
      const a = findAllocation(table, record.pod_name);
      if (!a || a.socket !== record.socket_path || a.delegated_from === this.#name) continue;
      if (a.delegated_from === null || !findAllocation(table, a.delegated_from)) a.delegated_from = this.#name;
    }
  }

  /** Makes the scope's runtime write locks match the write rules delegated from this pod. */
  private syncLocks(table: ScopeLockTable): void {
    if (!this.#scope) return;
    const wanted = new Map<string, LockRule>();
    for (const a of table.allocations) {
      if (a.delegated_from !== this.#name) continue;
      for (const r of a.scope_allow)
        if (r.permission === 'write') wanted.set(`${a.pod_name}\0${r.target}\0${r.recursive}`, r);
    }
    for (const [key, lock] of this.#locks) {
      if (wanted.has(key)) continue;
      lock.release();
      this.#locks.delete(key);
    }
    for (const [key, r] of wanted)
      if (!this.#locks.has(key)) this.#locks.set(key, this.#scope.lockWrite(r.target, { recursive: r.recursive }));
  }
}
