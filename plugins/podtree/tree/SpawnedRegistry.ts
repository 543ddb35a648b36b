import { z } from 'zod';
import { LockRuleSchema } from './ScopeLockSchema.js';
import { formatZodError, isYoiError, readOwnFile, RUNTIME_FILE, writeFileAtomic } from '../../../core/api.js';

/**
 * One pod this pod manages: a child it spawned, or a grandchild a child reported
 * (`scope_sub_delegated`). The original's four fields, plus optional ones yoi adds.
 */
export const SpawnedPodRecordSchema = z.object({
  pod_name: z.string().min(1),
  socket_path: z.string(),
  scope_delegated: z.array(LockRuleSchema),
  /** Where the pod reports: this pod's socket for a child, the reporting child's for a grandchild. */
  callback_address: z.string(),
  /** For a grandchild: the pod that spawned it. */
  via: z.string().optional(),
  /** When it was spawned or learnt of (ms since the epoch). */
  spawned_at: z.int().optional(),
  /** Its output log (stdout and stderr), for a child this pod started. */
  log_path: z.string().optional(),
  /**
   * The secret the pod presents (`hello.auth`) when it reports: only the real pod may report for
   * itself. Kept here so it survives this pod's restart and the adoption of orphans.
   */
  secret: z.string().optional(),
  /** The host it runs on, when that is another machine (placed through the cluster). */
  host: z.string().optional(),
  /** How far ReadPodOutput has read its history: items of that session. */
  read_cursor: z.object({ session_id: z.string(), items: z.int().min(0) }).optional(),
});
export type SpawnedPodRecord = z.infer<typeof SpawnedPodRecordSchema>;

export const SpawnedPodsFileSchema = z.array(SpawnedPodRecordSchema);

/**
 * The pod's registry of spawned pods, written through to `<pod dir>/spawned_pods.json` (pretty
 * JSON, 0600, atomic) on every change, and read back when a pod of the same name starts again.
 */
export class SpawnedRegistry {
  private constructor(
    readonly file: string,
    private records: SpawnedPodRecord[],
  ) {}

  /**
   * Loads the file if there is one; an unreadable file gives an empty registry and a note. A
   * file that is not the user's own (another owner, a link) is refused: its records would
   * name sockets and scopes this pod then acts on.
   */
  static load(file: string): { registry: SpawnedRegistry; note?: string } {
    let text: string | undefined;
    try {
      text = readOwnFile(file, RUNTIME_FILE);
    } catch (e) {
      if (isYoiError(e)) throw e;
    }
    if (text === undefined) return { registry: new SpawnedRegistry(file, []) };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      return {
        registry: new SpawnedRegistry(file, []),
        note: `${file} is not valid JSON (${(e as Error).message}): starting with no spawned pods`,
      };
    }
    const parsed = SpawnedPodsFileSchema.safeParse(json);
    if (!parsed.success) {
      return {
        registry: new SpawnedRegistry(file, []),
        note: `${file}: ${formatZodError(parsed.error, SpawnedPodsFileSchema)}: starting with no spawned pods`,
      };
    }
    return { registry: new SpawnedRegistry(file, parsed.data) };
  }

  get size(): number {
    return this.records.length;
  }

  list(): readonly SpawnedPodRecord[] {
    return this.records;
  }

  get(name: string): SpawnedPodRecord | undefined {
    return this.records.find((r) => r.pod_name === name);
  }

  /** Adds a record (replacing one of the same name). */
  add(record: SpawnedPodRecord): void {
    this.save([...this.records.filter((r) => r.pod_name !== record.pod_name), record]);
  }

  /** Removes a record; false when there was none (tolerated: reports may repeat). */
  remove(name: string): boolean {
    const kept = this.records.filter((r) => r.pod_name !== name);
    if (kept.length === this.records.length) return false;
    this.save(kept);
    return true;
  }

  update(name: string, patch: Partial<SpawnedPodRecord>): void {
    if (!this.get(name)) return;
    this.save(this.records.map((r) => (r.pod_name === name ? { ...r, ...patch } : r)));
  }

  /** Writes `records`, then holds them: a write that fails (a full disk) changes nothing, on disk or here. */
  private save(records: SpawnedPodRecord[]): void {
    writeFileAtomic(this.file, `${JSON.stringify(records, null, 2)}\n`);
    this.records = records;
  }
}
