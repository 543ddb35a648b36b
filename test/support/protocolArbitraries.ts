import fc from 'fast-check';
import {
  KNOWN_POD_EVENT_SCHEMAS,
  KNOWN_SEGMENT_SCHEMAS,
  METHOD_PARAMS,
  UnknownPodEvent,
  UnknownSegment,
  encodeMethod,
  type Method,
  type MethodName,
  type PodEvent,
  type ScopeRule,
  type Segment,
} from '../../core/protocol/index.js';

/** What a string is once it went over the wire as UTF-8 (lone surrogates become U+FFFD). */
export const asWire = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

/** Strings as hostile clients write them: any code points, controls, quotes, separators. */
export const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.constantFrom('', '"', '\\', '\n', '\u0000', '\u2028', '\ufeff', '{"method":"run"}', '<|endoftext|>', '\ud800'),
);
/** Such strings as they can arrive: valid Unicode (a Rust `String`). */
export const wireString = anyString.map(asWire);
const u32 = fc.integer({ min: 0, max: 0xffffffff });
/** A JSON value that survives a JSON round trip as itself (fast-check's, `-0` aside). */
const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const notKnown = (known: object) => wireString.filter((k) => !Object.hasOwn(known, k));

export const segmentArb: fc.Arbitrary<Segment> = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), content: wireString }),
  fc.record({ kind: fc.constant('paste' as const), id: u32, chars: u32, lines: u32, content: wireString }),
  fc.record({ kind: fc.constant('file_ref' as const), path: wireString }),
  fc.record({ kind: fc.constant('knowledge_ref' as const), slug: wireString }),
  fc.record({ kind: fc.constant('workflow_invoke' as const), slug: wireString }),
  fc
    .tuple(notKnown(KNOWN_SEGMENT_SCHEMAS), fc.dictionary(wireString, json, { maxKeys: 3 }))
    .map(([kind, rest]) => new UnknownSegment({ ...rest, kind })),
);

const scopeRule: fc.Arbitrary<ScopeRule> = fc.record({
  target: wireString,
  permission: fc.constantFrom('read' as const, 'write' as const),
  recursive: fc.boolean(),
});

export const podEventArb: fc.Arbitrary<PodEvent> = fc.oneof(
  fc.record({ kind: fc.constant('turn_ended' as const), pod_name: wireString }),
  fc.record({ kind: fc.constant('errored' as const), pod_name: wireString, message: wireString }),
  fc.record({ kind: fc.constant('shut_down' as const), pod_name: wireString }),
  fc.record({
    kind: fc.constant('scope_sub_delegated' as const),
    parent_pod: wireString,
    sub_pod: wireString,
    sub_socket: wireString,
    scope: fc.array(scopeRule, { maxLength: 3 }),
  }),
  fc
    .tuple(notKnown(KNOWN_POD_EVENT_SCHEMAS), wireString, fc.dictionary(wireString, json, { maxKeys: 3 }))
    .map(([kind, pod_name, rest]) => new UnknownPodEvent({ ...rest, kind, pod_name })),
);

/**
 * Valid params of every method, by name: typed as a record of every method, so a method added
 * to METHOD_PARAMS does not compile until it has an arbitrary here.
 */
export const PARAMS_ARBS: {
  [K in MethodName]: (typeof METHOD_PARAMS)[K] extends null
    ? null
    : fc.Arbitrary<Extract<Method, { method: K }>['params']>;
} = {
  run: fc.record({ input: fc.array(segmentArb, { maxLength: 4 }) }),
  notify: fc.record({ message: wireString }),
  pod_event: podEventArb,
  resume: null,
  cancel: null,
  pause: null,
  shutdown: null,
  get_history: null,
  hello: fc.record(
    { protocol_version: u32, client: fc.option(wireString, { nil: undefined }) },
    { requiredKeys: ['protocol_version'] },
  ),
  compact: null,
  list_completions: fc.record({ kind: wireString, prefix: wireString }),
};

/** A valid method of `name` (with or without a v2 `request_id`). */
export function methodOf(name: MethodName): fc.Arbitrary<Method> {
  const params = PARAMS_ARBS[name] as fc.Arbitrary<unknown> | null;
  const rid = fc.option(wireString, { nil: undefined });
  return fc.tuple(params ?? fc.constant(undefined), rid).map(
    ([p, request_id]) =>
      ({
        method: name,
        ...(p !== undefined ? { params: p } : {}),
        ...(request_id !== undefined ? { request_id } : {}),
      }) as Method,
  );
}

/** Any valid method. */
export const methodArb: fc.Arbitrary<Method> = fc.oneof(...(Object.keys(PARAMS_ARBS) as MethodName[]).map(methodOf));

/** A valid method line, then damaged: characters deleted, inserted or replaced at random. */
export const damagedLine: fc.Arbitrary<string> = fc
  .tuple(
    methodArb,
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.string({ maxLength: 3 })), { minLength: 1, maxLength: 4 }),
  )
  .map(([m, edits]) => {
    let line = encodeMethod(m);
    for (const [at, del, ins] of edits) {
      const i = line.length === 0 ? 0 : at % (line.length + 1);
      line = line.slice(0, i) + ins + line.slice(i + del);
    }
    return line;
  });

/** JSON values shaped like method envelopes with wrong parts: any method name, any params. */
export const envelopeLike: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    { method: fc.oneof(fc.constantFrom(...(Object.keys(METHOD_PARAMS) as MethodName[])), wireString), params: json },
    { requiredKeys: [] },
  ),
  fc.tuple(fc.constantFrom(...(Object.keys(METHOD_PARAMS) as MethodName[])), json),
  fc.record({
    method: fc.constantFrom(...(Object.keys(METHOD_PARAMS) as MethodName[])),
    request_id: json,
    params: json,
  }),
  json,
);
