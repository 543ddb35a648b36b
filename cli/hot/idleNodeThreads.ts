import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Whether this process collects garbage on its main thread only (`--single-threaded-gc`, a pod's
 * flag: core/pod/podNodeFlags.ts): then V8's worker threads only compile.
 */
export function singleThreadedGc(): boolean {
  // Node refuses the flag in NODE_OPTIONS: the command line is the only place for it.
  return process.execArgv.includes('--single-threaded-gc');
}

/** The threads of process `pid` other than its main one (Linux: /proc/<pid>/task); [] elsewhere. */
export function helperThreads(pid: number = process.pid): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .map(Number)
      .filter((tid) => tid !== pid);
  } catch {
    return [];
  }
}

/**
 * Puts the given threads in the idle scheduling class (SCHED_IDLE, through util-linux's `chrt`;
 * Node has no call for it). Why: a client woken while a 2–3 ms optimising compile ran on the
 * other core waited for the compile's slice to end, up to the next scheduler tick (4 ms here:
 * most of bench/latency's tail); a thread of the idle class gives way at once, and a compile
 * that waits for an idle core only leaves code unoptimised a little longer. A pod gives it the
 * threads Node starts before any of yoi's code runs (V8's compiler workers and its task
 * runner), not libuv's pool, whose file calls must not starve on a busy machine; and only when
 * its GC is single-threaded: V8's parallel and concurrent GC run on the same workers, and
 * starved on a busy machine they left a pod holding what it had freed
 * (test/core/server/inputBudget, run without the pod's flags, under load). Returns the process
 * doing it (one `sh` for all: a fork of the pod costs its main thread about a millisecond), or
 * undefined when there is nothing to do; without `chrt`, or for a thread gone, nothing happens.
 */
export function idleNodeThreads(tids: readonly number[]): ChildProcess | undefined {
  if (tids.length === 0) return undefined;
  // Required here, not at the top: only a pod needs it, once.
  const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const sh = spawn('/bin/sh', ['-c', 'for t do chrt --idle --pid 0 "$t"; done', 'sh', ...tids.map(String)], {
    stdio: 'ignore',
  });
  sh.on('error', () => undefined);
  sh.unref();
  return sh;
}
