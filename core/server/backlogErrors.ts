import { formatBytes, type Event } from '../protocol/index.js';

/** What a connection tells about its outbound backlog. */
export interface Backlog {
  readonly backlogBytes: number;
  readonly queueLimitBytes: number;
}

function rid(requestId: string | undefined): { request_id?: string } {
  return requestId !== undefined ? { request_id: requestId } : {};
}

/** The error a request gets, unserved, from a client that does not read what the pod sent it. */
export function requestRefused(conn: Backlog, requestId?: string): Event {
  return {
    event: 'error',
    data: {
      code: 'internal',
      message: `request not served: this client has not read ${formatBytes(conn.backlogBytes)} the pod sent it (limits.clientQueueBytes is ${formatBytes(conn.queueLimitBytes)}); read it, then ask again`,
    },
    ...rid(requestId),
  };
}

/** The error that replaces a reply that would take a client past its queue bound. */
export function replyRefused(conn: Backlog, reply: { event: string; request_id?: string }, replyBytes: number): Event {
  return {
    event: 'error',
    data: {
      code: 'internal',
      message: `${reply.event} not sent: its ${formatBytes(replyBytes)} would exceed this client's queue (limits.clientQueueBytes is ${formatBytes(conn.queueLimitBytes)}, ${formatBytes(conn.backlogBytes)} still unread); read it, then ask again`,
    },
    ...rid(reply.request_id),
  };
}

/** The error that replaces a large reply while the pod holds its budget of replies its clients have not read. */
export function replyOverBudget(
  reply: { event: string; request_id?: string },
  heldBytes: number,
  budgetBytes: number,
): Event {
  return {
    event: 'error',
    data: {
      code: 'internal',
      message: `${reply.event} not sent: the pod holds ${formatBytes(heldBytes)} of replies its clients have not read (limits.replyBufferBytes is ${formatBytes(budgetBytes)}); ask again once they read`,
    },
    ...rid(reply.request_id),
  };
}

/** The error that replaces a reply that could not be encoded (a history longer than a JS string can be). */
export function replyUnencodable(reply: { event: string; request_id?: string }, error: unknown): Event {
  return {
    event: 'error',
    data: {
      code: 'internal',
      message: `${reply.event} not sent: it could not be encoded (${error instanceof Error ? error.message : String(error)})`,
    },
    ...rid(reply.request_id),
  };
}
