// Shared helpers for the benchmarks: timing by median of repeated runs, ratio printing.
import { performance } from 'node:perf_hooks';

/** Runs `fn` `warmup` times, then `runs` times; returns the median duration in ms. */
export async function medianMs(fn, { runs = 7, warmup = 2 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Prints one result line; `higherIsBetter` says which way the goal points. */
export function report(name, ratio, goal, { higherIsBetter, detail = '' } = {}) {
  const ok = higherIsBetter ? ratio >= goal : ratio <= goal;
  const rel = higherIsBetter ? '≥' : '≤';
  console.log(
    `${name}: ratio ${ratio.toFixed(2)} (goal ${rel} ${goal}) ${ok ? 'OK' : 'MISSED'}${detail ? ` — ${detail}` : ''}`,
  );
  if (!ok) process.exitCode = 1; // a missed goal is visible to scripts (bench/run.js)
  return ok;
}
