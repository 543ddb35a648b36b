import type { ErrorCode, Event, MethodName, PodStatus } from '../core/protocol/index.js';

/**
 * A v1 pod (the original Rust yoi) has no `request_id`, no `ack` and broadcasts every event,
 * refusals included. These functions say which event answers a request a client sent it, so
 * that `PodClient` can offer v1 pods the same request/reply API as v2 ones.
 */

/** How a v1 pod refuses each method (`error` events, broadcast). */
const REFUSALS: Partial<Record<MethodName, readonly ErrorCode[]>> = {
  run: ['already_running'],
  resume: ['not_paused', 'already_running'],
  cancel: ['not_running'],
  pause: ['not_running'],
};

/** Events that show the pod took each method. */
const ACCEPTED_BY: Partial<Record<MethodName, (e: Event) => boolean>> = {
  // The original broadcasts `user_message` for every accepted run, before its first turn.
  run: (e) => e.event === 'user_message',
  // A resumed run re-runs its open tool calls or starts its next request.
  resume: (e) => ['turn_start', 'tool_result', 'text_delta', 'run_end'].includes(e.event),
  // The original ends a cancelled run with `error{internal,"Cancelled"}` (yoi adds `run_end`).
  cancel: (e) =>
    e.event === 'run_end' || (e.event === 'error' && e.data.code === 'internal' && e.data.message === 'Cancelled'),
  pause: (e) => e.event === 'run_end' && e.data.result === 'paused',
  get_history: (e) => e.event === 'history',
  shutdown: (e) => e.event === 'shutdown',
};

/** Methods a v1 pod takes without any answer: sent, and that is all. */
export const V1_UNANSWERED: ReadonlySet<MethodName> = new Set(['notify', 'pod_event']);

/** The original's answer to a line it cannot decode (an unknown method, bad params). */
export function isV1DecodeError(e: Event): boolean {
  return (
    e.event === 'error' &&
    e.request_id === undefined &&
    e.data.code === 'internal' &&
    e.data.message.startsWith('invalid method')
  );
}

/** The original's answer to `hello`: it does not know the method. */
export function isV1HelloRefusal(e: Event): boolean {
  return isV1DecodeError(e) && e.event === 'error' && e.data.message.includes('hello');
}

/** What `event` means for a v1 request of `method`: taken, refused, or nothing. */
export function v1Verdict(method: MethodName, event: Event): 'accepted' | 'refused' | undefined {
  if (event.request_id !== undefined) return undefined;
  if (event.event === 'error' && (REFUSALS[method]?.includes(event.data.code) || isV1DecodeError(event)))
    return 'refused';
  return ACCEPTED_BY[method]?.(event) ? 'accepted' : undefined;
}

/**
 * On a v1 connection every error is broadcast: another client's refused request or bad line
 * reaches everyone. True for such errors, which say nothing about the run a client watches.
 */
export function isAnotherClientsError(e: Event): boolean {
  if (e.event !== 'error' || e.request_id !== undefined) return false;
  return ['already_running', 'not_running', 'not_paused'].includes(e.data.code) || isV1DecodeError(e);
}

/**
 * The pod's state as a v1 pod's events show it (v1 has no `status` event). Undefined: the
 * event says nothing about it.
 */
export function v1StatusAfter(e: Event): PodStatus | undefined {
  switch (e.event) {
    case 'user_message':
    case 'turn_start':
    case 'text_delta':
    case 'tool_call_start':
    case 'tool_result':
      return 'running';
    case 'run_end':
      return e.data.result === 'paused' ? 'paused' : 'idle';
    case 'error':
      // A failed or cancelled run ends with an error; refusals leave the state as it was.
      return isAnotherClientsError(e) ? undefined : 'idle';
    case 'compact_start':
      return 'compacting';
    case 'compact_done':
    case 'compact_failed':
      return 'idle';
    default:
      return undefined;
  }
}
