import { z } from 'zod';
import { Str, seq, struct } from './primitives.js';
import { ScopeRuleSchema } from './structs.js';
import { taggedUnion } from './taggedUnion.js';

/** A child finished a turn its parent started. */
export const TurnEndedSchema = struct({ kind: z.literal('turn_ended'), pod_name: Str });
/** A child's run failed. */
export const ErroredSchema = struct({ kind: z.literal('errored'), pod_name: Str, message: Str });
/** A child stopped (note the spelling: `shut_down`, unlike the `shutdown` method). */
export const ShutDownSchema = struct({ kind: z.literal('shut_down'), pod_name: Str });
/** A child spawned a grandchild and delegated part of its scope to it. */
export const ScopeSubDelegatedSchema = struct({
  kind: z.literal('scope_sub_delegated'),
  parent_pod: Str,
  sub_pod: Str,
  sub_socket: Str,
  scope: seq(ScopeRuleSchema),
  /** yoi: the grandchild's report secret, so an ancestor that adopts it can authenticate it. */
  secret: Str.optional(),
});

export const KNOWN_POD_EVENT_SCHEMAS = {
  turn_ended: TurnEndedSchema,
  errored: ErroredSchema,
  shut_down: ShutDownSchema,
  scope_sub_delegated: ScopeSubDelegatedSchema,
};
export type KnownPodEventKind = keyof typeof KNOWN_POD_EVENT_SCHEMAS;
export const POD_EVENT_KINDS = Object.keys(KNOWN_POD_EVENT_SCHEMAS) as KnownPodEventKind[];

/**
 * A report of a kind this build does not know (from a newer child). v1 rejected these; yoi
 * keeps them so they still reach the parent's model as a generic line plus an alert.
 */
export class UnknownPodEvent {
  readonly kind = 'unknown' as const;

  constructor(readonly raw: Readonly<Record<string, unknown>>) {}

  get rawKind(): string {
    return typeof this.raw.kind === 'string' ? this.raw.kind : 'unknown';
  }

  get podName(): string {
    return typeof this.raw.pod_name === 'string' ? this.raw.pod_name : '?';
  }

  toJSON(): Readonly<Record<string, unknown>> {
    return this.raw;
  }
}

export const PodEventSchema = taggedUnion({
  name: 'pod event',
  tag: 'kind',
  variants: KNOWN_POD_EVENT_SCHEMAS,
  passthrough: UnknownPodEvent,
  onUnknown: (raw, kind) =>
    typeof raw.pod_name === 'string'
      ? new UnknownPodEvent(raw)
      : `unknown pod event kind \`${kind}\` without a \`pod_name\``,
});
export type PodEvent = z.infer<typeof PodEventSchema>;

export function podEventKind(event: PodEvent): string {
  return event instanceof UnknownPodEvent ? event.rawKind : event.kind;
}

/** The pod that sent a report: `pod_name`, or `parent_pod` for `scope_sub_delegated`. */
export function podEventSource(event: PodEvent): string {
  if (event instanceof UnknownPodEvent) return event.podName;
  return 'pod_name' in event ? event.pod_name : event.parent_pod;
}
