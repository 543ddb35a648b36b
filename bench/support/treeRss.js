// Resident memory of whole process trees (Linux /proc): a process and every descendant, found
// through /proc/<pid>/task/<tid>/children, their VmRSS summed (shared pages count once per
// process, as `ps` would show them).
import fs from 'node:fs';

const read = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return ''; // the process ended meanwhile
  }
};

/** The pids of `root` and its descendants (bounded, in case of a fork storm). */
export function treePids(root, limit = 4096) {
  const seen = new Set();
  const todo = [root];
  while (todo.length && seen.size < limit) {
    const pid = todo.pop();
    if (seen.has(pid)) continue;
    seen.add(pid);
    let tids = [];
    try {
      tids = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids)
      for (const c of read(`/proc/${pid}/task/${tid}/children`).split(' ')) if (c.trim()) todo.push(Number(c));
  }
  return [...seen];
}

/** Summed RSS in bytes of the trees under `roots`. */
export function treeRss(roots) {
  let total = 0;
  for (const root of roots) {
    for (const pid of treePids(root)) {
      const m = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`));
      if (m) total += Number(m[1]) * 1024;
    }
  }
  return total;
}
