import type { AlertLevel } from '../protocol/index.js';
import type { OpenedSession } from './openSession.js';

/**
 * Says what opening the session found (notes for the operator, warnings as alerts, which are
 * replayed to every client that connects), and makes a disk that fills up under the log said once,
 * and once more when writing works again (see SessionLog). Those are raised after the flush that
 * found them, never inside a delivery, so seqs stay in order. A log deleted or moved from
 * outside is said when a run's end finds it.
 */
export function watchSession(
  opened: OpenedSession,
  alert: (level: AlertLevel, message: string) => void,
  notes: string[],
): void {
  opened.log.onWriteState = (failure, log) =>
    void setImmediate(() =>
      alert(failure ? 'error' : 'warn', failure ?? `the session log ${log.file} is written again; nothing was lost`),
    );
  // Found by `sync` (a run's end, outside any delivery): said at once, so before the `run_end`.
  opened.log.onDetached = (how, log) =>
    alert(
      'error',
      `the session log ${log.file} was ${how === 'deleted' ? 'deleted' : 'moved or replaced'} while the pod writes it: ` +
        `the turns from here on ${how === 'deleted' ? 'are lost when the pod stops' : 'go to the file it was moved to'}; ` +
        '`yoi compact` starts a new log that holds the whole conversation',
    );
  notes.push(...opened.notes);
  for (const warning of opened.warnings) alert('warn', warning);
}
