import fs from 'node:fs';

/** Resident set size of a live process in bytes, from /proc/<pid>/status (Linux). */
export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]) * 1024;
}

/**
 * Samples `rssOf(pid)` every `everyMs` until stopped; `max` is the highest seen. A process
 * that grows past `killAboveBytes` is killed (SIGKILL): a regression must fail the test, not
 * take the machine's memory.
 */
export function sampleRss(
  pid: number,
  everyMs = 20,
  killAboveBytes = 1024 * 1024 * 1024,
): { readonly max: number; stop(): number } {
  let max = rssOf(pid);
  const timer = setInterval(() => {
    try {
      max = Math.max(max, rssOf(pid));
      if (max > killAboveBytes) process.kill(pid, 'SIGKILL');
    } catch {
      // the process exited
    }
  }, everyMs);
  return {
    get max() {
      return max;
    },
    stop() {
      clearInterval(timer);
      try {
        max = Math.max(max, rssOf(pid));
      } catch {
        // exited
      }
      return max;
    },
  };
}
