import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isTempFileName, tempFileWriter } from './tempFiles.js';
import { isPidAlive, PinnedDir, type PodServices } from '../../../core/api.js';

/** The journal's folder in the runtime base; not a valid pod name, so no pod directory collides. */
export const JOURNAL_DIR = '.write-temps';
/** Entries looked at per sweep (a journal holds one per write in flight, so it is normally empty). */
export const MAX_SWEPT_ENTRIES = 10_000;
const MAX_ENTRY_BYTES = 8192;
const ENTRY_NAME = /^(\d+)\.[0-9a-f]{12}\.json$/;

/** One journal entry: a temp file an atomic write is writing, and its writer. */
export const TempJournalEntrySchema = z.strictObject({ path: z.string().min(1), pid: z.int().min(1) });
export type TempJournalEntry = z.infer<typeof TempJournalEntrySchema>;

/**
 * The temp files of atomic writes in flight, one small file each under
 * `<runtime base>/.write-temps/`: recorded before the temp file is created, removed once it was
 * renamed or deleted. What a killed writer leaves is found at the next pod start without walking
 * any project tree (`sweep`), at the cost of one create and one unlink in the runtime dir per
 * write.
 */
export class TempJournal {
  #ready?: Promise<unknown>;

  constructor(readonly dir: string) {}

  /** The journal of the pod owning `services`; none when the host offers no runtime dir. */
  static of(services: PodServices): TempJournal | undefined {
    return services.runtime?.base ? new TempJournal(path.join(services.runtime.base, JOURNAL_DIR)) : undefined;
  }

  /**
   * Records `temp` (about to be created) and returns what forgets it. If the journal cannot be
   * written the write goes on untracked: its temp file is still hidden and recognisable.
   */
  async record(temp: string): Promise<() => Promise<void>> {
    const entry = path.join(this.dir, `${process.pid}.${randomBytes(6).toString('hex')}.json`);
    try {
      this.#ready ??= fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
      await this.#ready;
      const data: TempJournalEntry = { path: temp, pid: process.pid };
      await fs.promises.writeFile(entry, JSON.stringify(data), { mode: 0o600, flag: 'wx' });
    } catch {
      this.#ready = undefined;
      return async () => undefined;
    }
    return () => fs.promises.rm(entry, { force: true });
  }

  /**
   * Deletes the temp files whose writer is dead and that `mayRemove` accepts (the pod's write
   * scope: another pod's stay for it), and their entries; returns the paths deleted. Only a
   * regular file named like a temp file of that very writer is deleted, through its verified
   * directory, so an entry naming anything else deletes nothing.
   */
  async sweep(mayRemove: (temp: string) => boolean): Promise<string[]> {
    let names: string[];
    try {
      names = (await fs.promises.readdir(this.dir)).slice(0, MAX_SWEPT_ENTRIES);
    } catch {
      return [];
    }
    const removed: string[] = [];
    for (const name of names) {
      const writer = Number(ENTRY_NAME.exec(name)?.[1]);
      if (!writer || isPidAlive(writer)) continue;
      const entryFile = path.join(this.dir, name);
      const entry = await readEntry(entryFile);
      const temp = entry?.path;
      const tempName = temp === undefined ? '' : path.basename(temp);
      if (
        !entry ||
        entry.pid !== writer ||
        !path.isAbsolute(temp!) ||
        !isTempFileName(tempName) ||
        tempFileWriter(tempName) !== writer
      ) {
        await fs.promises.rm(entryFile, { force: true });
        continue;
      }
      if (!mayRemove(temp!)) continue;
      const outcome = await removeTemp(temp!);
      if (outcome === 'retry') continue; // could not be checked now: the next start tries again
      if (outcome === 'removed') removed.push(temp!);
      await fs.promises.rm(entryFile, { force: true });
    }
    return removed;
  }
}

async function readEntry(file: string): Promise<TempJournalEntry | undefined> {
  try {
    const handle = await fs.promises.open(
      file,
      fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
    );
    let text: string;
    try {
      const buffer = Buffer.alloc(MAX_ENTRY_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, MAX_ENTRY_BYTES, 0);
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
    const parsed = TempJournalEntrySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Deletes a stale temp file: `nothing` when there is no such regular file, `retry` when it cannot be told now. */
async function removeTemp(temp: string): Promise<'removed' | 'nothing' | 'retry'> {
  try {
    return await PinnedDir.with(path.dirname(temp), async (dir) => {
      const name = path.basename(temp);
      const stats = await dir.lstat(name).catch(() => undefined);
      if (!stats?.isFile()) return 'nothing';
      await dir.unlink(name);
      return 'removed';
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'nothing' : 'retry';
  }
}
