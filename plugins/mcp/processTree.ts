import fs from 'node:fs';

/** A process as /proc shows it: its pid and start time (so a reused pid is never mistaken for it). */
export interface ProcessId {
  readonly pid: number;
  readonly start: string;
}

/** `(ppid, session, starttime)` of a living pid from /proc/<pid>/stat; undefined when it is gone or a zombie (or not Linux). */
function statOf(pid: number): { ppid: number; session: number; start: string } | undefined {
  let line: string;
  try {
    line = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined; // exited, waiting to be reaped
  return { ppid: Number(fields[1]), session: Number(fields[3]), start: fields[19] };
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

/**
 * Every living process of the session `leader` started (a stdio server runs as a session leader,
 * see connectClient): what it left behind even once it exited and its children were handed to
 * init, or spawned while it was closing. A session id stays taken while any process is in it, so
 * they are the server's — unless the leader's pid now is another living process (the session
 * emptied and the number was reused), or the leader was never seen and its pid is alive: none
 * then. A process that started a session of its own escapes this (only cgroups would not).
 */
export function sessionOf(leader: ProcessId | number): ProcessId[] {
  const pid = typeof leader === 'number' ? leader : leader.pid;
  const now = statOf(pid);
  if (now && (typeof leader === 'number' || now.start !== leader.start)) return [];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcessId[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === pid) continue;
    const stat = statOf(Number(entry));
    if (stat?.session === pid) out.push({ pid: Number(entry), start: stat.start });
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
