import { isAscii } from 'node:buffer';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { exposedGc, v8Module } from '../../core/util/exposedGc.js';
import { helperThreads, idleNodeThreads, singleThreadedGc } from './idleNodeThreads.js';
import {
  bundleIdentity,
  codeCacheDir,
  codeCacheFile,
  codeCacheKey,
  readCodeCache,
  writeCodeCache,
} from './codeCacheFile.js';

/** What bin/run.js takes from the bundle (cli/hot/bundleEntry.ts). */
export type BundleExports = typeof import('./bundleEntry.js');

/**
 * Loads the bundle bin/run.js runs. Node 20 has no compile cache for ES modules
 * (`module.enableCompileCache` is 22.1+), so the build also writes the bundle as one CommonJS
 * script (dist/bundle/yoi.cjs), which this compiles as a `vm.Script` with the V8 code cache from
 * the user's cache directory (codeCacheFile.ts): most of the compiling a start does is then
 * read instead. Without a cache (none yet, rejected by V8, corrupt, another user's) the script
 * compiles from source and its cache is written once the start is over (a pod: after
 * `listening`; a command: at exit). Without a cache directory of the user's, with `YOI_DEBUG`
 * (the ES-module bundle has the source maps) or `YOI_NO_CODE_CACHE`, the ES-module bundle is
 * imported as before. A pod, `yoi send` and the other clients run different parts of the
 * bundle: each `role` has its own cache.
 */
export async function loadBundle(
  role: 'pod' | 'send' | 'client',
  env: NodeJS.ProcessEnv = process.env,
): Promise<BundleExports> {
  // Before yoi's code runs, the threads are Node's own: V8's workers, not yet libuv's pool. Only
  // with the pod's single-threaded GC: otherwise those workers also collect, and must not starve.
  const nodeThreads = role === 'pod' && singleThreadedGc() ? helperThreads() : [];
  const bundle = await loadCode(role, env);
  // A pod's clients are not kept waiting by V8's background compiles (see idleNodeThreads).
  if (nodeThreads.length > 0) bundle.onStartupDone(() => setImmediate(() => void idleNodeThreads(nodeThreads)));
  return bundle;
}

async function loadCode(role: 'pod' | 'send' | 'client', env: NodeJS.ProcessEnv): Promise<BundleExports> {
  const esm = () => import(new URL('./yoi.js', import.meta.url).href) as Promise<BundleExports>;
  if (env.YOI_DEBUG || env.YOI_NO_CODE_CACHE) return esm();
  const file = fileURLToPath(new URL('./yoi.cjs', import.meta.url));
  let source: Buffer | undefined;
  let stat: fs.Stats;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      stat = fs.fstatSync(fd);
      source = fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return esm();
  }
  const dir = codeCacheDir(env);
  if (!dir) return esm();
  const key = codeCacheKey(bundleIdentity(file, source, stat), role, env);
  // The build writes the bundle in ASCII, already in Node's CommonJS wrapper (see
  // scripts/bundle.js): read as latin1 it becomes V8's source as it is, without a copy.
  const text = isAscii(source) ? source.toString('latin1') : source.toString('utf8');
  // The buffers go before the bundle runs: a scavenge meanwhile would keep them in the old
  // generation, megabytes an idle pod would hold until a full GC.
  source = undefined;
  let cachedData = readCodeCache(codeCacheFile(dir, key), key);
  const script = new vm.Script(text, { filename: file, cachedData });
  const cached = cachedData !== undefined && !script.cachedDataRejected;
  cachedData = undefined;
  const module = { exports: {} as BundleExports };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    createRequire(file),
    module,
    file,
    path.dirname(file),
    // Resolved from this file, which lies next to the bundle.
    (specifier: string) => import(specifier),
  );
  const bundle = module.exports;
  // The ES-module bundle's start compiled enough to end in a full GC, which set V8's old
  // generation limit from the pod's live heap; a start from the cache ends before any, and the
  // limit left at V8's initial one let a burst of large replies pile up ~15 MB more garbage
  // before the first full GC (test/core/server/replyQueueBound). A pod has one at its first
  // quiet moment after `listening` (see whenQuiet).
  if (cached) {
    if (role === 'pod') bundle.onStartupDone(() => whenQuiet(fullGc));
  } else {
    let saved = false;
    const save = () => {
      if (saved) return;
      saved = true;
      try {
        writeCodeCache(dir, key, script.createCachedData());
      } catch {
        // A cache that cannot be written is only a slower next start.
      }
    };
    process.once('exit', save);
    // A pod's cache holds what its start compiled, written once it listens, before the GC
    // (which changes V8's flags). Written later, it also held what its first client's requests
    // compiled: their first `hello` and `run` were ~6 ms sooner, but every start ~5 ms slower.
    if (role === 'pod')
      bundle.onStartupDone(() =>
        setImmediate(() => {
          save();
          whenQuiet(fullGc);
        }),
      );
  }
  return bundle;
}

/** How often the pod is looked at for a quiet moment, and how long at most. */
const QUIET_WINDOW_MS = 40;
const QUIET_MAX_WAIT_MS = 1000;
/** Heap growth after which the GC runs even if the pod is busy. */
const GROWTH_BYTES = 8 * 1024 * 1024;

/**
 * Runs `fn` at the first quiet moment within a second of `listening`, not at once: a client
 * that connects as soon as the pod listens (a spawned child's parent, `yoi pod start` followed
 * by `send`) would wait for the full GC (~15 ms). Quiet: the process used less than a tenth of
 * the last window's time on a CPU (`process.cpuUsage`: `performance` would load perf_hooks). A
 * pod that allocates 8 MB meanwhile has it then: until the first full GC, V8's initial old
 * generation limit lets garbage pile up (test/core/server/replyQueueBound).
 */
function whenQuiet(fn: () => void): void {
  const started = Date.now();
  const heapAtStart = process.memoryUsage().heapUsed;
  let last = process.cpuUsage();
  const look = () => {
    const used = process.cpuUsage(last);
    last = process.cpuUsage();
    const busy = (used.user + used.system) / 1000 / QUIET_WINDOW_MS;
    if (
      busy < 0.1 ||
      Date.now() - started >= QUIET_MAX_WAIT_MS ||
      process.memoryUsage().heapUsed - heapAtStart > GROWTH_BYTES
    )
      fn();
    else setTimeout(look, QUIET_WINDOW_MS).unref();
  };
  setTimeout(look, QUIET_WINDOW_MS).unref();
}

/**
 * One full GC, compacting: the pages the start left part-empty would otherwise stay resident
 * until V8's memory reducer compacts them, ~8 s later (an idle pod 1.7 MiB larger until then).
 * Only after this process's code cache is written (see exposedGc).
 */
function fullGc(): void {
  const gc = exposedGc();
  if (gc === null) return; // only the GC's timing is lost
  const v8 = v8Module();
  v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
}
