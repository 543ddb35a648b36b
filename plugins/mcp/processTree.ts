import fs from 'node:fs';

/** A process as /proc shows it: its pid and start time (so a reused pid is never mistaken for it). */
export interface ProcessId {
  readonly pid: number;
  readonly start: string;
}

/** `(ppid, starttime)` of a living pid from /proc/<pid>/stat; undefined when it is gone or a zombie (or not Linux). */
function statOf(pid: number): { ppid: number; start: string } | undefined {
  let line: string;
  try {
    line = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined; // exited, waiting to be reaped
  return { ppid: Number(fields[1]), start: fields[19] };
}

/**
 * Every living descendant of `pid` (children, grandchildren, ...), read from /proc. Servers
 * started through a wrapper (`sh -c`, `npx`) leave their real process one level down; closing
 * the wrapper's stdin does not always end it.
 */
export function descendantsOf(pid: number): ProcessId[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, ProcessId[]>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (!stat) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push({ pid: Number(entry), start: stat.start });
    children.set(stat.ppid, list);
  }
  const out: ProcessId[] = [];
  const queue = [pid];
  // Bounded: a pid tree cannot hold more processes than /proc listed.
  while (queue.length > 0 && out.length < entries.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}

/** The process itself, when it is alive. */
export function processId(pid: number): ProcessId | undefined {
  const stat = statOf(pid);
  return stat ? { pid, start: stat.start } : undefined;
}

/** True while the very process (same start time) still exists. */
export function isAlive(p: ProcessId): boolean {
  return statOf(p.pid)?.start === p.start;
}

/** Kills those of `procs` that are still the processes they were (a reused pid is left alone). */
export function killSurvivors(procs: readonly ProcessId[]): void {
  for (const p of procs) {
    if (!isAlive(p)) continue;
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
