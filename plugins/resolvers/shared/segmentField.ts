/**
 * A field of a segment as the pod hands it to resolvers: the segment's JSON object (for a
 * kind the protocol does not know, the object the client sent). Whatever the input — not an
 * object, a missing field, a getter that throws — this returns a value or `undefined` and
 * never throws; callers check the type.
 */
export function segmentField(segment: unknown, name: string): unknown {
  if (typeof segment !== 'object' || segment === null || Array.isArray(segment)) return undefined;
  try {
    return Object.hasOwn(segment, name) ? (segment as Record<string, unknown>)[name] : undefined;
  } catch {
    return undefined;
  }
}
