import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { ScopeLockTableSchema, type ScopeLockTable } from './ScopeLockSchema.js';
import {
  ensurePrivateDir,
  formatZodError,
  isYoiError,
  openOwnFile,
  readOwnFile,
  type TrustLabel,
  writeFileAtomic,
  YoiError,
} from '../../../core/api.js';

const SCOPE_LOCK: TrustLabel = {
  what: 'scope lock',
  fix: 'remove it when no pod is running, or set YOI_RUNTIME_DIR to a directory you own',
};

/** Waits up to ~10 s for another process's operation (each holds the lock for milliseconds). */
const LOCK_OPTIONS = {
  realpath: false,
  stale: 10_000,
  retries: { retries: 100, factor: 1.5, minTimeout: 5, maxTimeout: 100 },
  // The default throws from a timer (killing the pod) when the lock's mtime cannot be refreshed.
  onCompromised: () => undefined,
} as const;

/**
 * `<runtime base>/scope.lock`: every pod's write scope, machine-wide (ARCHITECTURE §4.1, §7).
 * Pretty JSON validated with zod; mode 0600 in a 0700 directory. Each operation takes the lock
 * (proper-lockfile: a `scope.lock.lock` directory, stale after 10 s if its holder died), reads,
 * applies a pure function from `allocationTable.ts`, writes atomically (temp file + rename, so a
 * crash never leaves half a table) and unlocks.
 */
export class ScopeLockFile {
  constructor(readonly file: string) {}

  static inBase(base: string): ScopeLockFile {
    return new ScopeLockFile(path.join(base, 'scope.lock'));
  }

  /** The table as it is now. */
  read(): Promise<ScopeLockTable> {
    return this.withTable((table) => table, false);
  }

  /**
   * Runs `fn` on the table under the lock and saves the table if `fn` changed it. Errors of
   * `fn` (YoiErrors: conflicts, unknown pods) leave the file unchanged and are rethrown.
   */
  update<T>(fn: (table: ScopeLockTable) => T): Promise<T> {
    return this.withTable(fn, true);
  }

  private async withTable<T>(fn: (table: ScopeLockTable) => T, save: boolean): Promise<T> {
    this.ensureFile();
    let unlock: () => Promise<void>;
    try {
      unlock = await lockfile.lock(this.file, LOCK_OPTIONS);
    } catch (e) {
      throw this.error(`cannot take the lock: ${(e as Error).message}`, e);
    }
    try {
      const before = readOwnFile(this.file, SCOPE_LOCK) ?? '';
      const table = this.parse(before);
      const result = fn(table);
      if (!save) return result;
      const after = `${JSON.stringify(table, null, 2)}\n`;
      if (after !== before) this.write(after);
      return result;
    } catch (e) {
      if (isYoiError(e)) throw e;
      throw this.error((e as Error).message, e);
    } finally {
      await unlock().catch(() => undefined);
    }
  }

  /** The base and the file must be the user's (a swapped-in lock of another user is refused). */
  private ensureFile(): void {
    ensurePrivateDir(path.dirname(this.file));
    const fd = openOwnFile(this.file, SCOPE_LOCK, { create: true, tighten: true, write: true });
    if (fd !== undefined) fs.closeSync(fd);
  }

  private parse(text: string): ScopeLockTable {
    if (text.trim() === '') return { allocations: [] };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw this.error(`not valid JSON (${(e as Error).message}); delete it when no pod is running`);
    }
    const parsed = ScopeLockTableSchema.safeParse(json);
    if (!parsed.success)
      throw this.error(`${formatZodError(parsed.error, ScopeLockTableSchema)}; delete it when no pod is running`);
    return parsed.data;
  }

  private write(text: string): void {
    writeFileAtomic(this.file, text);
  }

  private error(message: string, cause?: unknown): YoiError {
    return new YoiError('YOI_ERR_SCOPE_LOCK', `the scope lock ${this.file} cannot be used: ${message}`, { cause });
  }
}
