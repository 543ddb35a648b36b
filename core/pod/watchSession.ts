import type { AlertLevel } from '../protocol/index.js';
import type { OpenedSession } from './openSession.js';

/**
 * Says what opening the session found (notes for the operator, warnings as alerts, which are
 * replayed to every client that connects), and makes a disk that fills up under the log said once,
 * and once more when writing works again (see SessionLog). Those are raised after the flush that
 * found them, never inside a delivery, so seqs stay in order.
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
  notes.push(...opened.notes);
  for (const warning of opened.warnings) alert('warn', warning);
}
