import { z } from 'zod';
import { PodEventSchema } from './PodEvent.js';
import { SegmentSchema } from './Segment.js';
import { Str, U32, seq, struct } from './primitives.js';

export const RunParamsSchema = struct({
  input: seq(SegmentSchema),
});
export const NotifyParamsSchema = struct({ message: Str });
/** v2: opens protocol negotiation; the pod answers `welcome`. */
export const HelloParamsSchema = struct({
  protocol_version: U32,
  client: Str.optional(),
  /** A credential for pods that authenticate a kind of client (a child pod's report secret). */
  auth: Str.optional(),
});
/** v2: completion candidates for `@` (file_ref), `#` (knowledge_ref), `/` (workflow_invoke). */
export const ListCompletionsParamsSchema = struct({ kind: Str, prefix: Str.default('') });

/**
 * Every method, by name, with its params schema; `null` marks a unit method, written without
 * `params` (on input `params` may be absent or `null`).
 */
export const METHOD_PARAMS = {
  run: RunParamsSchema,
  notify: NotifyParamsSchema,
  pod_event: PodEventSchema,
  resume: null,
  cancel: null,
  pause: null,
  shutdown: null,
  get_history: null,
  hello: HelloParamsSchema,
  compact: null,
  list_completions: ListCompletionsParamsSchema,
} as const;

export type MethodName = keyof typeof METHOD_PARAMS;
export const METHOD_NAMES = Object.keys(METHOD_PARAMS) as MethodName[];
/** The methods a v1 (Rust yoi) peer knows. */
export const V1_METHOD_NAMES: readonly MethodName[] = [
  'run',
  'notify',
  'pod_event',
  'resume',
  'cancel',
  'pause',
  'shutdown',
  'get_history',
];

/** The `params` of method `K` (the schema's output). */
export type ParamsOf<K extends MethodName> = (typeof METHOD_PARAMS)[K] extends z.ZodType
  ? z.output<(typeof METHOD_PARAMS)[K]>
  : never;

/** A client → pod line. `request_id` (v2) is echoed on every reply the request causes. */
export type Method = {
  [K in MethodName]: (typeof METHOD_PARAMS)[K] extends null
    ? { method: K; params?: undefined; request_id?: string }
    : { method: K; params: ParamsOf<K>; request_id?: string };
}[MethodName];

export type MethodOf<K extends MethodName> = Extract<Method, { method: K }>;
