import { z } from 'zod';
import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
  ToolKind,
} from '@agentclientprotocol/sdk';

/** The decisions a permission ask offers (the pod's words and ACP's option kinds are the same). */
export const DecisionSchema = z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
export type Decision = z.infer<typeof DecisionSchema>;

/** The pod's `permission_request` event (defined by the permission plugin); unknown fields are kept. */
export const PermissionRequestSchema = z.looseObject({
  id: z.string().min(1).max(200),
  tool: z.string(),
  args: z.unknown(),
  summary: z.string(),
  options: z.array(DecisionSchema).min(1),
  deadline_ms: z.number().optional(),
  default: DecisionSchema.optional(),
  /** A child pod's ask, forwarded by its parent, names the child. */
  pod: z.string().optional(),
});
export type PermissionRequest = z.infer<typeof PermissionRequestSchema>;
export const PermissionResolvedSchema = z.looseObject({
  id: z.string(),
  decision: z.string().optional(),
  by: z.string().optional(),
});

/**
 * The editor's answer to `session/request_permission`. The SDK passes it on unchecked (its own
 * zod schema is not exported), and a malformed one must not end `yoi acp`.
 */
const EditorAnswerSchema = z.looseObject({
  outcome: z.discriminatedUnion('outcome', [
    z.looseObject({ outcome: z.literal('cancelled') }),
    z.looseObject({ outcome: z.literal('selected'), optionId: z.string() }),
  ]),
});

/** At most this many asks wait on the editor at once; more are left to other clients and the deadline. */
const MAX_PENDING = 32;
/** How much of an editor's value a log line shows. */
const MAX_SHOWN = 200;

const LABELS: Record<Decision, string> = {
  allow_once: 'Allow once',
  allow_always: 'Always allow',
  reject_once: 'Reject',
  reject_always: 'Always reject',
};

export interface PermissionPort {
  /** Asks the editor (`session/request_permission`); aborting the signal withdraws the ask. */
  ask(request: Omit<RequestPermissionRequest, 'sessionId'>, signal: AbortSignal): Promise<RequestPermissionResponse>;
  /** Sends the decision to the pod (`permission_reply`). */
  reply(id: string, decision: Decision, message?: string): Promise<void>;
  /** The tool call an ask is about, if this session saw it. */
  callOf(tool: string, args: unknown): { id: string; title: string } | undefined;
  kindOf(tool: string): ToolKind;
  log(line: string): void;
}

/**
 * The pod's permission asks as ACP `session/request_permission` requests with the same options
 * (option ids are the decisions), and the editor's answer as `permission_reply`. Other clients
 * may answer first, or the deadline may pass: `permission_resolved` then withdraws the ask.
 * An ask the editor dismisses without choosing, or answers with a malformed value, is rejected
 * once, unless the turn was cancelled (the pod's cancel resolves it).
 */
export class PermissionBridge {
  private readonly pending = new Map<string, AbortController>();

  constructor(
    private readonly port: PermissionPort,
    private readonly cancelled: () => boolean,
  ) {}

  onRequest(data: unknown): void {
    const parsed = PermissionRequestSchema.safeParse(data);
    if (!parsed.success) {
      this.port.log(`ignoring a malformed permission_request: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    const req = parsed.data;
    if (this.pending.has(req.id)) return; // re-sent to a client that reconnected
    if (this.pending.size >= MAX_PENDING) {
      this.port.log(`permission ask ${req.id} not forwarded: ${MAX_PENDING} asks are already waiting on the editor`);
      return;
    }
    const abort = new AbortController();
    this.pending.set(req.id, abort);
    void this.forward(req, abort.signal)
      .catch((e: Error) => this.port.log(`permission ask ${req.id}: ${e.message}`))
      .finally(() => this.pending.delete(req.id));
  }

  onResolved(data: unknown): void {
    const parsed = PermissionResolvedSchema.safeParse(data);
    if (parsed.success) this.pending.get(parsed.data.id)?.abort();
  }

  /** Withdraws every ask (the connection to the pod is gone). */
  close(): void {
    for (const abort of this.pending.values()) abort.abort();
  }

  private async forward(req: PermissionRequest, signal: AbortSignal): Promise<void> {
    const call = this.port.callOf(req.tool, req.args);
    const options: PermissionOption[] = req.options.map((d) => ({ optionId: d, name: LABELS[d], kind: d }));
    const title = `${req.pod !== undefined ? `[${req.pod}] ` : ''}${req.summary || call?.title || req.tool}`;
    let response: RequestPermissionResponse;
    try {
      response = await this.port.ask(
        {
          toolCall: {
            toolCallId: call?.id ?? `permission-${req.id}`,
            title,
            kind: this.port.kindOf(req.tool),
            status: 'pending',
            rawInput: req.args ?? {},
          },
          options,
        },
        signal,
      );
    } catch (e) {
      if (!signal.aborted)
        this.port.log(`permission ask ${req.id}: the editor did not answer: ${(e as Error).message}`);
      return;
    }
    if (signal.aborted) return; // answered elsewhere meanwhile
    const answer = EditorAnswerSchema.safeParse(response);
    if (!answer.success) {
      // No decision, like a dismissal: the pod's call must not wait on it until the deadline.
      this.port.log(
        `permission ask ${req.id}: malformed answer from the editor, taken as a dismissal: ${shown(response)}`,
      );
      return this.dismiss(req.id, 'no valid answer from the editor');
    }
    const outcome = answer.data.outcome;
    if (outcome.outcome === 'selected') {
      const decision = DecisionSchema.safeParse(outcome.optionId);
      if (!decision.success || !req.options.includes(decision.data)) {
        this.port.log(
          `permission ask ${req.id}: the editor chose an option that was not offered (${shown(outcome.optionId)})`,
        );
        return;
      }
      await this.port
        .reply(req.id, decision.data)
        .catch((e: Error) => this.port.log(`permission ask ${req.id}: ${e.message}`));
    } else {
      await this.dismiss(req.id, 'dismissed in the editor');
    }
  }

  /** No decision from the editor: rejected once, unless the editor cancelled the turn (the pod's cancel resolves it). */
  private async dismiss(id: string, message: string): Promise<void> {
    if (this.cancelled()) return;
    await this.port
      .reply(id, 'reject_once', message)
      .catch((e: Error) => this.port.log(`permission ask ${id}: ${e.message}`));
  }
}

/** A value from the editor as JSON for a log line, cut to `MAX_SHOWN` characters. */
function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > MAX_SHOWN ? `${json.slice(0, MAX_SHOWN)}…` : json;
}
