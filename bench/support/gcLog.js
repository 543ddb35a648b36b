// Preloaded into a pod process (`NODE_OPTIONS=--import=<this file>`, GC_LOG=<file>): writes
// every GC pause it sees, `[start, duration]` in epoch milliseconds, to GC_LOG every 200 ms and
// at exit, so a benchmark can tell which of its runs a collection overlapped.
import fs from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';

const pauses = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push([performance.timeOrigin + e.startTime, e.duration]);
}).observe({ entryTypes: ['gc'] });
const save = () => fs.writeFileSync(process.env.GC_LOG, JSON.stringify(pauses));
setInterval(save, 200).unref();
process.on('exit', save);
