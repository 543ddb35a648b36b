import fs from 'node:fs';
import path from 'node:path';

/** `.<session id>.jsonl.<writer pid>.tmp`; `.<session id>.jsonl.tmp` is an older yoi's (no pid). */
const TEMP_NAME = /^\.[A-Za-z0-9_-]{1,128}\.jsonl(?:\.(\d+))?\.tmp$/;
/** An older yoi's temp file (no pid to check) is stale once this old: one lives for one fdatasync. */
const UNNAMED_STALE_MS = 60_000;

/**
 * The hidden name a compaction writes a new session under before renaming it into place: it
 * names the writer, so a pod killed mid-compaction can be told from one compacting right now
 * in a directory other pods share.
 */
export function compactionTempName(sessionId: string, pid: number = process.pid): string {
  return `.${sessionId}.jsonl.${pid}.tmp`;
}

/**
 * Removes the temp files of compactions whose writer is gone (killed between the write and the
 * rename): they hold a session that never became one. Returns how many were removed.
 */
export function removeStaleCompactionTemps(dir: string, now = Date.now()): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m) continue;
    const file = path.join(dir, name);
    try {
      const st = fs.lstatSync(file);
      if (!st.isFile()) continue;
      const stale = m[1] !== undefined ? !isAlive(Number(m[1])) : now - st.mtimeMs > UNNAMED_STALE_MS;
      if (!stale) continue;
      fs.unlinkSync(file);
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}
