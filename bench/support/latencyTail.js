// What bench/latency.js prints with LATENCY_EXPLAIN=1: for the runs at or above the p99 of the
// first delta, and for the runs between p90 and p99, the medians of the pod main thread's time on
// a CPU and waiting for one, and of the client's wait, over each whole run (to `status: idle`);
// and how many of them a GC pause of the pod overlapped.

/** Marks each run a GC pause overlapped (`gc`: the pauses' `[start, duration]`, epoch ms). */
export function gcOverlaps(runs, pauses) {
  return runs.map((r) => pauses.some(([s, d]) => s + d >= r.at && s <= r.at + r.us / 1000));
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const med = (xs) => (xs.length ? Math.round(pct(xs, 50)) : '-');

export function tailReport(runs, overlapped) {
  const rows = runs.map((r, i) => ({
    us: r.us,
    gc: overlapped[i],
    podCpu: r.podAfter && (r.podAfter.onCpu - r.pod.onCpu) / 1000,
    podWait: r.podAfter && (r.podAfter.waiting - r.pod.waiting) / 1000,
    meWait: r.meAfter && (r.meAfter.waiting - r.me.waiting) / 1000,
  }));
  const p90 = pct(
    rows.map((r) => r.us),
    90,
  );
  const p99 = pct(
    rows.map((r) => r.us),
    99,
  );
  const groups = [
    ['all runs', rows],
    ['p90–p99', rows.filter((r) => r.us >= p90 && r.us < p99)],
    ['slowest 1%', rows.filter((r) => r.us >= p99)],
  ];
  return groups.map(
    ([name, g]) =>
      `latency tail, ${name} (${g.length}): first delta ${med(g.map((r) => r.us))} µs; pod on a CPU ${med(g.map((r) => r.podCpu))} µs, ` +
      `waiting for one ${med(g.map((r) => r.podWait))} µs; client waiting ${med(g.map((r) => r.meWait))} µs (medians over ` +
      `each whole run); overlapped by a GC pause: ${g.filter((r) => r.gc).length}`,
  );
}
