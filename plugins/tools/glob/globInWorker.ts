import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ToolRefusal } from '../../../core/api.js';

/** What the walk gets: a pattern below `cwd` and tinyglobby's plain-data options. */
export interface GlobWalk {
  readonly pattern: string;
  readonly cwd: string;
  readonly ignore: readonly string[];
}

/** Longest a Glob may walk and match, whatever the pod's tool deadline. */
export const GLOB_TIME_LIMIT_MS = 30_000;
/** The walk's heap: a listing past it is refused, not grown into the pod's memory. */
export const GLOB_HEAP_MB = 256;

// Loads tinyglobby by absolute path, so it works from dist/ and from the bundle alike.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { glob } = require(workerData.lib);
glob(workerData.pattern, {
  cwd: workerData.cwd, absolute: true, dot: true, onlyFiles: true, followSymbolicLinks: false,
  expandDirectories: false, ignore: workerData.ignore,
}).then(
  (files) => parentPort.postMessage({ files }),
  (e) => parentPort.postMessage({ error: String((e && e.message) || e) }),
);`;

let lib: string | undefined;

/**
 * Runs the walk in a worker thread: picomatch's regexes backtrack (`*a*a…b` over a long name
 * takes hours, and every `*` per segment multiplies), and on the pod's thread no deadline,
 * cancel or SIGTERM could interrupt one. The worker is terminated on `signal`, after
 * `timeLimitMs`, or when it outgrows {@link GLOB_HEAP_MB}. Costs ~40 ms a call.
 */
export function globInWorker(walk: GlobWalk, signal: AbortSignal, timeLimitMs = GLOB_TIME_LIMIT_MS): Promise<string[]> {
  signal.throwIfAborted();
  lib ??= createRequire(import.meta.url).resolve('tinyglobby');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { lib, pattern: walk.pattern, cwd: walk.cwd, ignore: [...walk.ignore] },
    resourceLimits: { maxOldGenerationSizeMb: GLOB_HEAP_MB },
    stdout: true,
    stderr: true,
  });
  return new Promise<string[]>((resolve, reject) => {
    let settled = false;
    const done = (settle: () => void) => {
      if (settled) return; // the exit that follows a message or an error
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      settle();
    };
    const onAbort = () => done(() => reject(signal.reason));
    const timer = setTimeout(
      () =>
        done(() =>
          reject(
            new ToolRefusal(
              `Glob gave up after ${timeLimitMs / 1000} s matching ${walk.pattern}: use fewer \`*\` per path segment or a narrower path`,
            ),
          ),
        ),
      timeLimitMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (m: { files?: string[]; error?: string }) =>
      done(() => (m.files ? resolve(m.files) : reject(new Error(m.error)))),
    );
    worker.once('error', (e: Error & { code?: string }) =>
      done(() =>
        reject(
          e.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ToolRefusal(
                `Glob's listing of ${walk.pattern} outgrew ${GLOB_HEAP_MB} MB: give a narrower path or pattern`,
              )
            : e,
        ),
      ),
    );
    worker.once('exit', (code) => done(() => reject(new Error(`Glob's walk stopped (exit code ${code})`))));
  });
}
