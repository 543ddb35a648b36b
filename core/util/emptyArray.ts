/** An empty array whose elements are already of V8's generic kind (a string was stored and removed). */
const GENERIC: readonly unknown[] = [''].slice(1);

/**
 * A new empty array for the hot paths that fill one per run, batch or connection. A `[]` literal
 * starts out holding small integers only, and the first object or string pushed onto it by
 * optimized code fails that code's check and throws the code away (V8 learns the kind only
 * while the array is young, which it often is not by the time it is filled). Each such loss
 * cost a recompile of the inlined streaming path, tens of ms on a 2-core machine.
 */
export function emptyArray<T>(): T[] {
  return GENERIC.slice() as T[];
}
