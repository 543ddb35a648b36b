// A small seeded generator (mulberry32) for the benchmarks' random workloads: the same seed
// gives the same sequence of actions, so a soak run that found something can be replayed.
export function seededRandom(seed) {
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
    /** An integer in [min, max]. */
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    /** One of `items`. */
    pick: (items) => items[Math.floor(next() * items.length)],
    /** true with probability p. */
    chance: (p) => next() < p,
  };
}
