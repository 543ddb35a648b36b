import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RUNTIME_FILE, openOwnFile, writeFileAtomic, z } from '../../core/api.js';
import type { SandboxFlags } from './bwrapArgs.js';

/**
 * `<runtime base>/.bwrap-probe.json` (a leading dot: never a pod's name): fingerprints of the
 * setups where the probe succeeded, shared by the user's pods.
 */
export const PROBE_CACHE_FILE = '.bwrap-probe.json';
const ProbeCacheSchema = z.object({ version: z.literal(1), ok: z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(64) });
/** Fingerprints kept (newest last): a few bwrap builds and flag sets per boot. */
const MAX_ENTRIES = 16;
/** Larger than any file this module writes; anything bigger is not read. */
const MAX_FILE_BYTES = 8192;

/**
 * What decides whether bwrap can make a sandbox, hashed: the executable (path and identity: a
 * replaced or rebuilt binary differs), the flags, the user, this boot, the namespaces the pod
 * runs in, and the kernel's switches for unprivileged user namespaces. A cached success stands
 * only while all of these are the same; a probe that failed is never cached (it runs again).
 */
export function sandboxFingerprint(executable: string, flags: SandboxFlags): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.statSync(executable);
  } catch {
    return undefined;
  }
  const hash = crypto.createHash('sha256');
  const add = (part: string) => hash.update(`${part}\0`);
  add(`v1 ${executable} ${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.mode}:${st.uid}`);
  add(`network=${flags.network} uid=${process.getuid?.() ?? ''}`);
  add(small('/proc/sys/kernel/random/boot_id') ?? 'no-boot-id');
  for (const ns of ['user', 'pid', 'net', 'mnt', 'ipc', 'uts', 'cgroup']) add(link(`/proc/self/ns/${ns}`) ?? `${ns}:-`);
  for (const knob of [
    'kernel/unprivileged_userns_clone',
    'kernel/apparmor_restrict_unprivileged_userns',
    'user/max_user_namespaces',
    'user/max_pid_namespaces',
    'user/max_net_namespaces',
    'user/max_mnt_namespaces',
  ]) {
    add(`${knob}=${small(`/proc/sys/${knob}`) ?? '-'}`);
  }
  return hash.digest('hex');
}

/** Whether a probe with this fingerprint succeeded before (the cache file in the runtime base). */
export function cachedSuccess(base: string, fingerprint: string): boolean {
  return readCache(base)?.includes(fingerprint) ?? false;
}

/** Records a success; a cache that cannot be written is left alone (the next pod probes again). */
export function recordSuccess(base: string, fingerprint: string): void {
  const known = (readCache(base) ?? []).filter((k) => k !== fingerprint);
  try {
    writeFileAtomic(
      path.join(base, PROBE_CACHE_FILE),
      `${JSON.stringify({ version: 1, ok: [...known, fingerprint].slice(-MAX_ENTRIES) })}\n`,
    );
  } catch {
    // No runtime base (a tool made outside a pod) or a full disk: nothing is lost.
  }
}

/** The cached fingerprints, or undefined when the file is missing, not the user's, or not ours. */
function readCache(base: string): string[] | undefined {
  let fd: number | undefined;
  try {
    fd = openOwnFile(path.join(base, PROBE_CACHE_FILE), RUNTIME_FILE);
    if (fd === undefined || fs.fstatSync(fd).size > MAX_FILE_BYTES) return undefined;
    const parsed = ProbeCacheSchema.safeParse(JSON.parse(fs.readFileSync(fd, 'utf8')));
    return parsed.success ? parsed.data.ok : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function small(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').slice(0, 200).trim();
  } catch {
    return undefined;
  }
}

function link(file: string): string | undefined {
  try {
    return fs.readlinkSync(file);
  } catch {
    return undefined;
  }
}
