import fs from 'node:fs';
import path from 'node:path';
import type { SessionEntryOf } from '../session/SessionEntry.js';
import { SessionLog } from '../session/SessionLog.js';
import { compactionTempName } from '../session/compactionTempFiles.js';
import { ensureSessionDir } from '../session/sessionFiles.js';
import { writeFully } from '../session/writeFully.js';

/**
 * Writes the first entry of a session made by compaction and opens it for appending. The file
 * appears whole or not at all: it is written under a hidden temp name, fdatasynced, then
 * renamed into place, so a pod killed mid-compaction leaves either the old session as the
 * newest (a restart resumes it) or the new one complete. Session listings skip the temp name
 * (it does not end in `.jsonl`); one whose writer was killed is removed at the next start (see
 * compactionTempFiles). The directory is fsynced in the background: until then a
 * power loss can only undo the rename, which leaves the old session, intact, as the newest.
 */
export function writeCompactedSession(dir: string, start: SessionEntryOf<'session_start'>): SessionLog {
  ensureSessionDir(dir);
  const file = path.join(dir, `${start.session_id}.jsonl`);
  const tmp = path.join(dir, compactionTempName(start.session_id));
  if (fs.existsSync(file)) throw new Error(`session ${start.session_id} already exists`);
  const first = SessionLog.firstLine(start); // a new chain: compacted_from links it to the old one
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    writeFully(fd, Buffer.from(first.text)); // a short write on a full disk must not become a torn session
    fs.fdatasyncSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
  syncDir(dir);
  return SessionLog.open(file, start.session_id, first.tail, { synced: true });
}

/** Makes a rename durable, off the event loop (best effort: some filesystems refuse). */
function syncDir(dir: string): void {
  fs.open(dir, 'r', (error, fd) => {
    if (error) return;
    fs.fsync(fd, () => fs.close(fd, () => undefined));
  });
}
