/**
 * A small seeded generator (mulberry32): fault tests draw their kill points and fault patterns
 * from it, so a failure replays with the seed it printed.
 */
export interface SeededRandom {
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

export function seededRandom(seed: number): SeededRandom {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}

/** The seed of a fault test: `YOI_FAULT_SEED`, else `fallback` (fixed, so CI runs are repeatable). */
export function faultSeed(fallback: number): number {
  const s = Number(process.env.YOI_FAULT_SEED);
  return Number.isInteger(s) ? s : fallback;
}

/** A count a fault test repeats something: `fallback` in CI, `YOI_FAULT_SCALE` times as many for bench runs. */
export function faultCount(fallback: number): number {
  const scale = Number(process.env.YOI_FAULT_SCALE);
  return Number.isFinite(scale) && scale > 0 ? Math.max(1, Math.round(fallback * scale)) : fallback;
}
