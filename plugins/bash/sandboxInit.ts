import fs from 'node:fs';

/** Longest wait for a sandbox's PID 1 after bwrap ended: it has SIGKILL pending by then. */
const MAX_WAIT_MS = 10_000;

/**
 * The sandbox's PID 1 (bwrap's reaper), from what bwrap writes on `--info-fd`. The kernel lets
 * PID 1 of a namespace finish exiting only once every other process in it is dead, so PID 1
 * gone or a zombie means nothing of the command runs any more. bwrap itself exits as soon as
 * the command's first process does, before that: `gone()` is what says the command has ended.
 */
export interface SandboxInit {
  gone(): Promise<void>;
}

/**
 * Opens `/proc/<pid>/stat` of the reported PID 1 while it is known to be ours (its PID namespace
 * is the reported one): reads through that descriptor fail with ESRCH once it is reaped, even if
 * the number is reused. `undefined` when the info is unusable or PID 1 is already gone.
 */
export function trackSandboxInit(info: string): SandboxInit | undefined {
  let pid: number;
  let pidNs: unknown;
  try {
    const parsed = JSON.parse(info) as { 'child-pid'?: unknown; 'pid-namespace'?: unknown };
    if (!Number.isSafeInteger(parsed['child-pid'])) return undefined;
    pid = parsed['child-pid'] as number;
    pidNs = parsed['pid-namespace'];
  } catch {
    return undefined;
  }
  let fd: number;
  try {
    fd = fs.openSync(`/proc/${pid}/stat`, 'r');
  } catch {
    return undefined; // reaped already: its namespace is empty
  }
  if (pidNs !== undefined) {
    let link: string | undefined;
    try {
      link = fs.readlinkSync(`/proc/${pid}/ns/pid`);
    } catch {
      // a zombie has no namespaces left: exited, so its namespace is empty
    }
    if (link !== `pid:[${String(pidNs)}]`) {
      fs.closeSync(fd);
      return undefined;
    }
  }
  return { gone: () => waitGone(fd) };
}

async function waitGone(fd: number): Promise<void> {
  const deadline = Date.now() + MAX_WAIT_MS;
  try {
    for (let delay = 1; !isGone(fd) && Date.now() < deadline; delay = Math.min(delay * 2, 50))
      await new Promise((resolve) => setTimeout(resolve, delay));
  } finally {
    fs.closeSync(fd);
  }
}

/** Reaped (ESRCH) or a zombie / dead (state Z or X in `stat`). */
function isGone(fd: number): boolean {
  const buffer = Buffer.alloc(512);
  let text: string;
  try {
    text = buffer.toString('latin1', 0, fs.readSync(fd, buffer, 0, buffer.length, 0));
  } catch {
    return true;
  }
  const state = text.slice(text.lastIndexOf(')') + 2, text.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X' || state === '';
}
