import { V1_ERROR_CODES } from './schemas/enums.js';
import type { Event } from './schemas/Event.js';

/**
 * Maps an event to what a v1 client may receive: only event names and enum values that the
 * v1 vectors contain, and no top-level `seq`/`request_id`. A v2-only event with no v1
 * counterpart maps to nothing; a cancelled run becomes `error{internal,"Cancelled"}` followed
 * by `run_end{finished}` so that no v1 client is left waiting for its terminal event.
 */
export function downgradeToV1(event: Event, now: () => number = Date.now): Event[] {
  switch (event.event) {
    case 'welcome':
    case 'ack':
    case 'status':
    case 'completions':
    case 'notification':
    case 'tool_progress':
      return [];
    case 'lagged': {
      const count = BigInt(event.data.to_seq) - BigInt(event.data.from_seq) + 1n;
      const message = `${count} event(s) were not delivered because this client read too slowly; send get_history to resync`;
      return [{ event: 'alert', data: { level: 'warn', source: 'pod', message, timestamp_ms: now() } }];
    }
    case 'run_end':
      if (event.data.result === 'cancelled') {
        return [
          { event: 'error', data: { code: 'internal', message: 'Cancelled' } },
          { event: 'run_end', data: { result: 'finished' } },
        ];
      }
      return [{ event: 'run_end', data: event.data }];
    case 'error':
      return [
        {
          event: 'error',
          data: V1_ERROR_CODES.includes(event.data.code) ? event.data : { ...event.data, code: 'internal' },
        },
      ];
    default: {
      if (event.seq === undefined && event.request_id === undefined) return [event];
      const { seq: _seq, request_id: _rid, ...rest } = event;
      return [rest as Event];
    }
  }
}
