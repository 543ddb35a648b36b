import { afterEach, describe, expect, it, jest } from '@jest/globals';
import fs from 'node:fs';
import { messageItem } from '../../../core/history/HistoryItem.js';
import { SYNC_SPACING_MS, type SessionLog } from '../../../core/session/SessionLog.js';
import { openTestSession, testSessionsDir } from '../../support/sessionLogs.js';
import { waitUntil } from '../../support/waitUntil.js';

afterEach(() => {
  jest.restoreAllMocks();
});

/** One run's entries, as a run's end leaves them: appended, then `sync`. */
function run(log: SessionLog, text: string): void {
  log.append({
    type: 'user_input',
    ts: Date.now(),
    segments: [{ kind: 'text', content: text }],
    items: [messageItem('user', text)],
  });
  log.append({ type: 'run_end', ts: Date.now(), result: 'finished' });
  log.sync();
}

describe("the session log's fdatasync", () => {
  it('starts at once for a run after a quiet spell, and runs back to back share one every SYNC_SPACING_MS', async () => {
    const syncs: number[] = [];
    const real = fs.fdatasync;
    jest.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, cb: (e: NodeJS.ErrnoException | null) => void) => {
      syncs.push(performance.now());
      real(fd, cb);
    }) as typeof fs.fdatasync);
    const { log } = openTestSession(testSessionsDir(), 'spaced');
    run(log, 'first');
    expect(syncs).toHaveLength(1); // durable as soon as the disk allows
    for (let i = 0; i < 50; i++) run(log, `burst ${i}`);
    expect(syncs).toHaveLength(1);
    await waitUntil(() => syncs.length === 2, 'the burst to be synced', 5_000);
    // Timers run against the event loop's clock, read when its turn began: a little early by this one.
    expect(syncs[1] - syncs[0]).toBeGreaterThanOrEqual(SYNC_SPACING_MS - 5);
    log.close();
  });

  it('is completed by close, with nothing left to start after it', async () => {
    const { log } = openTestSession(testSessionsDir(), 'closing');
    run(log, 'first');
    const later = jest.spyOn(fs, 'fdatasync');
    const atClose = jest.spyOn(fs, 'fdatasyncSync');
    run(log, 'second'); // within the spacing: waits for its timer
    expect(later).not.toHaveBeenCalled();
    log.close();
    expect(atClose).toHaveBeenCalledTimes(1);
    // A timer of the spacing's length, set after the log's, runs after it.
    await new Promise((r) => setTimeout(r, SYNC_SPACING_MS));
    expect(later).not.toHaveBeenCalled();
  });
});
