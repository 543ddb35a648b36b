import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { baseMountArgs, isolationArgs, type SandboxFlags } from './bwrapArgs.js';
import { cachedSuccess, recordSuccess, sandboxFingerprint } from './probeCache.js';

/** Whether bubblewrap can sandbox commands here, and with which executable; else why not. */
export type SandboxProbe =
  { readonly ok: true; readonly bwrap: string } | { readonly ok: false; readonly reason: string };

/** Longest a probe may take (a bwrap start is a few milliseconds). */
const PROBE_TIMEOUT_MS = 10_000;

const probes = new Map<string, SandboxProbe>();

/**
 * Starts `bwrap` once with the namespaces every command gets and an empty command: where it is
 * missing, or the kernel refuses user namespaces (or the namespaces asked for), the reason is
 * bwrap's own first line. Synchronous (the tool factory that asks is), and cached per
 * executable and flags for the life of the process. With `cacheBase` (the runtime base) a
 * success is also remembered there for the same setup (see probeCache.ts), so the pods that
 * follow skip the probe (a bwrap start with its namespaces is a good part of a pod's start-up).
 */
export function probeSandbox(
  bwrap: string | undefined,
  flags: SandboxFlags,
  env: NodeJS.ProcessEnv = process.env,
  cacheBase?: string,
): SandboxProbe {
  const executable = bwrap ?? findOnPath('bwrap', env.PATH);
  if (!executable)
    return { ok: false, reason: 'bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)' };
  const key = `${executable}\0${flags.network}`;
  let probe = probes.get(key);
  if (!probe) {
    probe = runProbe(executable, flags, cacheBase);
    probes.set(key, probe);
  }
  return probe;
}

function runProbe(executable: string, flags: SandboxFlags, cacheBase: string | undefined): SandboxProbe {
  const untrusted = untrustedReason(executable);
  if (untrusted) return { ok: false, reason: untrusted };
  const cache =
    cacheBase === undefined ? undefined : { base: cacheBase, fingerprint: sandboxFingerprint(executable, flags) };
  if (cache?.fingerprint && cachedSuccess(cache.base, cache.fingerprint)) return { ok: true, bwrap: executable };
  const args = [...baseMountArgs('read'), ...isolationArgs(flags), '--', '/bin/sh', '-c', ':'];
  const r = spawnSync(executable, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
    env: {},
  });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, reason: `bubblewrap is not installed at ${executable}` };
    return { ok: false, reason: `bubblewrap (${executable}) could not be started: ${r.error.message}` };
  }
  if (r.status === 0) {
    if (cache?.fingerprint) recordSuccess(cache.base, cache.fingerprint);
    return { ok: true, bwrap: executable };
  }
  const said = r.stderr
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return {
    ok: false,
    reason: `bubblewrap cannot create a sandbox here: ${said ?? (r.signal ? `killed by ${r.signal}` : `exit code ${r.status}`)}`,
  };
}

/** The first executable file `name` in the directories of `PATH`. */
export function findOnPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The sandbox is only as good as the program building it: bwrap must belong to root or to this
 * user and be writable by nobody else (a binary anyone may replace protects nothing).
 */
function untrustedReason(executable: string): string | undefined {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(executable);
  } catch {
    return `bubblewrap is not installed at ${executable}`;
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  if (stats.uid !== 0 && stats.uid !== uid)
    return `bubblewrap at ${executable} belongs to another user (uid ${stats.uid}); not trusted`;
  if ((stats.mode & 0o022) !== 0) return `bubblewrap at ${executable} is writable by other users; not trusted`;
  return undefined;
}
