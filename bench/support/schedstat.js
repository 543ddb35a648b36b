// A thread's scheduler account from /proc (Linux): nanoseconds on a CPU and waiting for one
// (runnable, but another thread had the core). `undefined` where /proc has no schedstat.
import fs from 'node:fs';

export function schedstat(pid, tid = pid) {
  try {
    const [onCpu, waiting] = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
    return { onCpu, waiting };
  } catch {
    return undefined;
  }
}
