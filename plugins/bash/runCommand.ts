import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { OutputCapture, type CapturedOutput } from './OutputCapture.js';
import { trackSandboxInit, type SandboxInit } from './sandboxInit.js';

/** What to start and how long to let it run. */
export interface RunRequest {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Extra descriptors from fd 3 on, each reading an empty stream (bwrap's `--ro-bind-data`). */
  readonly dataFds?: number;
  /** The descriptor bwrap writes its `--info-fd` JSON on (after the data fds): the run then ends only once the sandbox is empty. */
  readonly infoFd?: number;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly maxOutputBytes: number;
}

/** How a command ended. */
export interface RunOutcome {
  /** `exited` on its own, killed at the `timeout`, or killed because the call was `cancelled`. */
  readonly ended: 'exited' | 'timeout' | 'cancelled';
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** stdout and stderr, interleaved, head and tail kept. */
  readonly output: CapturedOutput;
  /** What the launcher itself wrote on its stderr (bwrap's errors), capped. */
  readonly diagnostics: string;
  /** The process could not be started at all (ENOENT, E2BIG...). */
  readonly spawnError?: string;
  /** Process id (= process group id) of the launcher. */
  readonly pid?: number;
}

/** Launcher messages kept (bwrap says one line when it fails). */
const DIAGNOSTIC_BYTES = 4096;
/**
 * After the launcher exited, how long its pipes may stay open: only a process that left the
 * process group and the sandbox (possible unsandboxed) still holds them, and it is not waited for.
 */
const DRAIN_AFTER_EXIT_MS = 1000;

/**
 * Starts the command in its own process group and collects its output in bounded memory. At the
 * timeout or on abort the whole group is killed (SIGKILL); once the launcher exited, what is left
 * of its group is killed too, so no background job outlives the call. With `infoFd` it resolves
 * only once the sandbox's PID 1 is gone (see sandboxInit). Never rejects.
 */
export function runCommand(req: RunRequest): Promise<RunOutcome> {
  const output = new OutputCapture(req.maxOutputBytes);
  const diagnostics = new OutputCapture(DIAGNOSTIC_BYTES);
  const done = (fields: Omit<RunOutcome, 'output' | 'diagnostics'>): RunOutcome => ({
    ...fields,
    output: output.finish(),
    diagnostics: diagnostics.finish().text.trim(),
  });
  if (req.signal.aborted) return Promise.resolve(done({ ended: 'cancelled', code: null, signal: null }));

  return new Promise((resolve) => {
    const nullFd = req.dataFds ? fs.openSync('/dev/null', 'r') : undefined;
    const stdio: ('ignore' | 'pipe' | number)[] = [
      'ignore',
      'pipe',
      'pipe',
      ...Array.from({ length: req.dataFds ?? 0 }, () => nullFd!),
    ];
    if (req.infoFd !== undefined) stdio[req.infoFd] = 'pipe';
    let child: ChildProcess;
    try {
      child = spawn(req.file, req.args, { cwd: req.cwd, env: req.env, detached: true, stdio });
    } catch (e) {
      resolve(done({ ended: 'exited', code: null, signal: null, spawnError: (e as Error).message }));
      return;
    } finally {
      if (nullFd !== undefined) fs.closeSync(nullFd);
    }
    const pid = child.pid;
    let ended: RunOutcome['ended'] = 'exited';
    let spawnError: string | undefined;
    const killGroup = () => {
      if (pid === undefined) return;
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const stop = (why: 'timeout' | 'cancelled') => {
      if (ended === 'exited' && exit === undefined) ended = why;
      killGroup();
    };
    const timer = setTimeout(() => stop('timeout'), req.timeoutMs);
    const onAbort = () => stop('cancelled');
    req.signal.addEventListener('abort', onAbort, { once: true });

    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drain: NodeJS.Timeout | undefined;
    child.stdout!.on('data', (chunk: Buffer) => output.write(chunk));
    const init = sandboxInit(req.infoFd === undefined ? undefined : (child.stdio[req.infoFd] as Readable | null));
    child.stderr!.on('data', (chunk: Buffer) => diagnostics.write(chunk));
    child.on('error', (e) => {
      spawnError = e.message;
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      killGroup();
      drain = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        if (req.infoFd !== undefined) (child.stdio[req.infoFd] as Readable | null)?.destroy();
      }, DRAIN_AFTER_EXIT_MS);
    });
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      clearTimeout(drain);
      req.signal.removeEventListener('abort', onAbort);
      const final = exit ?? { code: spawnError ? null : code, signal };
      const outcome = done({
        ended,
        code: final.code,
        signal: final.signal,
        pid,
        ...(spawnError ? { spawnError } : {}),
      });
      // bwrap is gone; what the command left in its PID namespace may still be dying.
      void init
        .then((i) => i?.gone())
        .catch(() => undefined)
        .then(() => resolve(outcome));
    });
  });
}

/** What bwrap says on its info descriptor, read to its end (bwrap closes it right after writing). */
function sandboxInit(stream: Readable | null | undefined): Promise<SandboxInit | undefined> {
  if (!stream) return Promise.resolve(undefined);
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    if (text.length < 4096) text += chunk;
  });
  return new Promise((resolve) => {
    stream.on('error', () => resolve(undefined));
    stream.on('end', () => resolve(trackSandboxInit(text)));
    stream.on('close', () => resolve(undefined));
  });
}
