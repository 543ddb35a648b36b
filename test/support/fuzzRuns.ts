import fs from 'node:fs';
import fc from 'fast-check';

/**
 * Cases of the whole fuzz suite in CI: each property's default count is its share of this.
 * `YOI_FUZZ_RUNS=N` scales every share so the suite runs about N cases (bench/fuzz.js: 10⁶).
 */
export const CI_FUZZ_CASES = 10_000;

/** Runs for a property that has `ciRuns` in CI, scaled by `YOI_FUZZ_RUNS`. */
export function fuzzRuns(ciRuns: number): number {
  const wanted = Number(process.env.YOI_FUZZ_RUNS);
  if (!Number.isFinite(wanted) || wanted <= 0) return ciRuns;
  return Math.max(1, Math.round((ciRuns * wanted) / CI_FUZZ_CASES));
}

/**
 * `fc.assert` with `fuzzRuns(ciRuns)` runs. With `YOI_FUZZ_REPORT=<file>` one JSON line per
 * property is appended there (name, runs, milliseconds, failure), which bench/fuzz.js sums up.
 */
export async function fuzzAssert<Ts>(
  name: string,
  property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>,
  ciRuns: number,
  params: fc.Parameters<Ts> = {},
): Promise<void> {
  const runs = fuzzRuns(ciRuns);
  const started = performance.now();
  let failure: string | undefined;
  try {
    // YOI_FUZZ_SEED replays a failure's seed (as reported: `{ seed: N, path: ... }`).
    const seed = process.env.YOI_FUZZ_SEED ? { seed: Number(process.env.YOI_FUZZ_SEED) } : {};
    await fc.assert(property, { ...params, numRuns: runs, ...seed });
  } catch (e) {
    failure = (e as Error).message.split('\n').slice(0, 3).join(' ');
    throw e;
  } finally {
    const report = process.env.YOI_FUZZ_REPORT;
    if (report)
      fs.appendFileSync(
        report,
        `${JSON.stringify({ name, runs, ms: Math.round(performance.now() - started), ...(failure ? { failure } : {}) })}\n`,
      );
  }
}
