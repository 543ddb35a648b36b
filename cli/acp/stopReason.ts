import type { StopReason } from '@agentclientprotocol/sdk';
import type { Event } from '../../core/protocol/index.js';

/** How a run the editor started ended, as the pod said it. */
export type RunOutcome =
  | { readonly kind: 'end'; readonly event: Extract<Event, { event: 'run_end' }> }
  | { readonly kind: 'error'; readonly code: string; readonly message: string }
  | { readonly kind: 'lost'; readonly message: string };

/**
 * The ACP stop reason of a run: `cancelled` whenever the editor cancelled (whatever the run's own
 * end), else from `run_end`: `finished` → `end_turn`, `limit_reached` (yoi's `maxTurns` tool
 * rounds) → `max_turn_requests`, `cancelled` (by another client) → `cancelled`, `paused` (by
 * another client; `yoi resume` continues it) → `end_turn`. A failed or lost run has no stop
 * reason: the prompt fails with the pod's message (undefined here).
 */
export function stopReason(outcome: RunOutcome, cancelledByEditor: boolean): StopReason | undefined {
  if (cancelledByEditor) return 'cancelled';
  if (outcome.kind !== 'end') return undefined;
  switch (outcome.event.data.result) {
    case 'finished':
    case 'paused':
      return 'end_turn';
    case 'limit_reached':
      return 'max_turn_requests';
    case 'cancelled':
      return 'cancelled';
  }
}
