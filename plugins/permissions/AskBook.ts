import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DecisionSchema, type Decision } from './permissionsConfig.js';
import { PermissionRequestSchema, type PermissionRequest, type PermissionResolved } from './permissionWire.js';

/** An ask as the session log keeps it. */
export const AskRecordSchema = z.object({
  request: PermissionRequestSchema.omit({ deadline_ms: true }),
  /** A relayed ask (a child's): the child that answers go to. */
  via: z.string().optional(),
  /** A local ask: the call's identity, for a decision given after a restart. */
  call_key: z.string().optional(),
  /** A local ask: the rule `allow_always` / `reject_always` saves. */
  save: z.object({ tool: z.string(), exact: z.string().optional() }).optional(),
});
export type AskRecord = z.infer<typeof AskRecordSchema>;

/** The plugin's session-log entries. */
export const AskLogEntrySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ask'), ask: AskRecordSchema }),
  z.object({ type: z.literal('resolved'), id: z.string(), decision: DecisionSchema, by: z.string() }),
]);
export type AskLogEntry = z.infer<typeof AskLogEntrySchema>;

/** How an ask ended, for the tool call waiting on it. */
export interface Outcome {
  readonly decision: Decision;
  /** A client's name, or `timeout`, `cancel`, `pause`. */
  readonly by: string;
  readonly message?: string;
  /** Set when no one answered: the deadline passed, or the run stopped. */
  readonly ended?: 'timeout' | 'cancel' | 'pause' | 'shutdown';
}

export interface PendingAsk {
  readonly record: AskRecord;
  /** The tool call waiting in this process (none for a relayed or restored ask). */
  waiter?: (outcome: Outcome) => void;
  /** A reply is being relayed to the child: a second one is refused. */
  relaying?: boolean;
  timer?: NodeJS.Timeout;
}

/** Asks pending at once in one pod (its own and relayed ones); beyond this a call is refused. */
export const MAX_PENDING = 100;
/** Resolved asks remembered, so a late reply is told it came too late. */
const MAX_RECENT = 256;

/**
 * The pending asks of one pod and the recently resolved ones. Each pending ask has a timer for
 * its deadline (`onDeadline`); `take()` ends it.
 */
export class AskBook {
  readonly #pending = new Map<string, PendingAsk>();
  readonly #recent = new Map<string, PermissionResolved>();

  constructor(private readonly onDeadline: (ask: PendingAsk) => void) {}

  get size(): number {
    return this.#pending.size;
  }

  /** A fresh id: 8 hex digits, unused here. */
  newId(): string {
    for (;;) {
      const id = randomBytes(4).toString('hex');
      if (!this.#pending.has(id) && !this.#recent.has(id)) return id;
    }
  }

  /** Adds an ask; its deadline fires `graceMs` after `expires_at` (relayed asks wait for the child's word). */
  add(record: AskRecord, opts: { waiter?: (o: Outcome) => void; graceMs?: number; now?: number } = {}): PendingAsk {
    const ask: PendingAsk = { record, ...(opts.waiter ? { waiter: opts.waiter } : {}) };
    const wait = Math.max(0, record.request.expires_at + (opts.graceMs ?? 0) - (opts.now ?? Date.now()));
    ask.timer = setTimeout(() => {
      if (this.#pending.get(record.request.id) === ask) this.onDeadline(ask);
    }, wait);
    ask.timer.unref();
    this.#pending.set(record.request.id, ask);
    return ask;
  }

  get(id: string): PendingAsk | undefined {
    return this.#pending.get(id);
  }

  /** Whether `id` is known at all (pending or recently resolved). */
  knows(id: string): boolean {
    return this.#pending.has(id) || this.#recent.has(id);
  }

  resolved(id: string): PermissionResolved | undefined {
    return this.#recent.get(id);
  }

  /** Ends a pending ask with its resolution; undefined when it is not pending (any more). */
  take(id: string, resolution: PermissionResolved): PendingAsk | undefined {
    const ask = this.#pending.get(id);
    if (!ask) return undefined;
    clearTimeout(ask.timer);
    this.#pending.delete(id);
    this.#recent.set(id, resolution);
    if (this.#recent.size > MAX_RECENT) this.#recent.delete(this.#recent.keys().next().value!);
    return ask;
  }

  /** Stops following an ask without resolving it (the pod stops: it stays pending in the log). */
  detach(id: string): void {
    const ask = this.#pending.get(id);
    if (ask) ask.waiter = undefined;
  }

  all(): PendingAsk[] {
    return [...this.#pending.values()];
  }

  /** The pending asks as `permission_request` data, their `deadline_ms` counted from `now`. */
  requests(now = Date.now()): PermissionRequest[] {
    return this.all().map((a) => requestOf(a.record, now));
  }

  /** Clears every timer (the pod stops). */
  close(): void {
    for (const ask of this.#pending.values()) clearTimeout(ask.timer);
  }
}

/** The event data of a pending ask, as of `now`. */
export function requestOf(record: AskRecord, now = Date.now()): PermissionRequest {
  return { ...record.request, deadline_ms: Math.max(0, record.request.expires_at - now) };
}
