import { createRequire } from 'node:module';

/** V8's `gc` (`--expose-gc`): a full collection, or `{ type: 'minor' }` for the young generation. */
export type Gc = (options?: { type: 'minor' | 'major' }) => void;

let gc: Gc | null | undefined;
let v8: typeof import('node:v8') | undefined;

/**
 * `node:v8`, required on first use: a pod's start does not need it (~1 ms of a start).
 */
export function v8Module(): typeof import('node:v8') {
  return (v8 ??= createRequire(import.meta.url)('node:v8') as typeof import('node:v8'));
}

/**
 * V8's `gc`, exposed to a new context (only a new one gets it) the first time it is asked for;
 * null when it cannot be. The flag changes V8's flag hash: call this only after the start's
 * code cache is written (cli/hot/loadBundle.ts).
 */
export function exposedGc(): Gc | null {
  if (gc !== undefined) return gc;
  try {
    v8Module().setFlagsFromString('--expose-gc');
    gc = (createRequire(import.meta.url)('node:vm') as typeof import('node:vm')).runInNewContext('gc') as Gc;
  } catch {
    gc = null;
  }
  return gc;
}
