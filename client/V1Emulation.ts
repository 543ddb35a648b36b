import { YoiError } from '../core/errors/YoiError.js';
import {
  V1_METHOD_NAMES,
  encodeMethod,
  type ErrorCode,
  type Event,
  type EventOf,
  type Method,
  type MethodName,
  type PodStatus,
} from '../core/protocol/index.js';
import { V1_UNANSWERED, v1StatusAfter, v1Verdict } from './v1Replies.js';

/** What `request()` resolves with. */
export type Reply = EventOf<'ack'> | EventOf<'welcome'> | EventOf<'history'> | EventOf<'completions'>;

/** The pod refused a request: `code` is the pod's error code (`already_running`, ...). */
export class PodRequestError extends YoiError {
  constructor(
    readonly podCode: ErrorCode,
    message: string,
  ) {
    super('YOI_ERR_REQUEST', message);
  }
}

const synthetic = new WeakSet<object>();

/** True for an event the client made up for a v1 pod (an `ack`, a derived `status`), not one the pod sent. */
export function isSynthetic(event: Event): boolean {
  return synthetic.has(event);
}

interface V1Pending {
  method: MethodName;
  resolve: (event: Reply) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The request/reply API of v2 over a v1 connection (a pod that does not know `hello`). It
 * writes plain v1 lines and takes the event that shows a method took effect (`user_message`
 * for `run`, `run_end{paused}` for `pause`, ... see v1Replies.ts) or the refusal `error` as the
 * reply. Listeners get what a v2 pod would send: a synthetic `ack` before the run's first event,
 * refusals marked as replies (with a request id), `status` derived from the run's events.
 * Methods v1 lacks (`compact`, `list_completions`) are refused with `YOI_ERR_UNSUPPORTED`.
 */
export class V1Emulation {
  status?: PodStatus;
  /**
   * Set while the pod is only presumed v1: it did not answer `hello` within this many ms. A pod
   * that refused `hello` is v1; one that stayed silent may just be hung (SIGSTOP, a busy loop).
   */
  unansweredHelloMs?: number;
  private readonly pending: V1Pending[] = [];
  private nextId = 1;

  constructor(
    private readonly write: (line: string) => void,
    private readonly emit: (event: Event) => void,
  ) {}

  /** The error for a method v1 lacks; for a pod that never answered, the timeout it may be. */
  unsupported(name: string): YoiError {
    if (this.unansweredHelloMs === undefined)
      return new YoiError('YOI_ERR_UNSUPPORTED', `the pod speaks protocol v1, which has no \`${name}\``);
    return new YoiError(
      'YOI_ERR_TIMEOUT',
      `the pod did not answer \`hello\` within ${this.unansweredHelloMs} ms: it is not responding (or speaks only protocol v1, which has no \`${name}\`)`,
    );
  }

  /** Called once the pod is known to speak v1: its state is unknown, so idle is assumed. */
  start(): void {
    // A run it is busy with shows in its events; a run sent meanwhile is refused (`already_running`).
    this.setStatus('idle');
  }

  request(method: Method, timeoutMs: number): Promise<Reply> {
    const name = method.method;
    if (!V1_METHOD_NAMES.includes(name)) {
      return Promise.reject(this.unsupported(name));
    }
    this.write(`${encodeMethod(method as Method)}\n`);
    // What v1 never answers is accepted once written; a pause while paused is a no-op there.
    if (V1_UNANSWERED.has(name) || (name === 'pause' && this.status === 'paused')) return Promise.resolve(ack(name));
    return new Promise<Reply>((resolve, reject) => {
      const entry: V1Pending = {
        method: name,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.pending.splice(this.pending.indexOf(entry), 1);
          const why =
            this.unansweredHelloMs === undefined
              ? ' (it speaks protocol v1)'
              : `, nor \`hello\` within ${this.unansweredHelloMs} ms: it is not responding (or speaks only protocol v1)`;
          reject(new YoiError('YOI_ERR_TIMEOUT', `the pod did not answer \`${name}\` within ${timeoutMs} ms${why}`));
        }, timeoutMs),
      };
      this.pending.push(entry);
    });
  }

  /**
   * Hands `event` to listeners, after settling the oldest request it answers. `derive`: also
   * derive the pod's status (not once a late `welcome` showed the pod speaks v2 after all).
   */
  dispatch(event: Event, derive = true): void {
    this.emit(this.pending.length > 0 ? this.answer(event) : event);
    if (derive) this.setStatus(v1StatusAfter(event));
  }

  /** The connection closed: a v1 pod answers `shutdown` by going away; the rest fail. */
  closed(gone: () => Error): void {
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      if (p.method === 'shutdown') p.resolve(ack('shutdown'));
      else p.reject(gone());
    }
  }

  private answer(event: Event): Event {
    const i = this.pending.findIndex((p) => v1Verdict(p.method, event) !== undefined);
    if (i < 0) return event;
    const [p] = this.pending.splice(i, 1);
    clearTimeout(p.timer);
    if (v1Verdict(p.method, event) === 'refused' && event.event === 'error') {
      p.reject(new PodRequestError(event.data.code, `${event.data.code}: ${event.data.message}`));
      // As on v2, a refusal is a reply to the requester, not the failure of a run.
      const reply: Event = { ...event, request_id: `v1-${this.nextId++}` };
      synthetic.add(reply);
      return reply;
    }
    if (event.event === 'history') {
      p.resolve(event);
      return event;
    }
    const reply = ack(p.method);
    this.emit(reply); // before the run's first event, as on v2
    p.resolve(reply);
    return event;
  }

  private setStatus(status: PodStatus | undefined): void {
    if (status === undefined || status === this.status) return;
    this.status = status;
    const derived: Event = { event: 'status', data: { status, session_id: '' } };
    synthetic.add(derived);
    this.emit(derived);
  }
}

function ack(method: MethodName): EventOf<'ack'> {
  const event: EventOf<'ack'> = { event: 'ack', data: { method } };
  synthetic.add(event);
  return event;
}
