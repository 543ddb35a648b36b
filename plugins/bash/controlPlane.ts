import fs from 'node:fs';
import path from 'node:path';
import { canonicalPath, type PodInfo } from '../../core/api.js';

/**
 * Sockets of the host a command could use to act outside its sandbox (a read-only bind does not
 * stop `connect()`): the user's session bus and agents live in `$XDG_RUNTIME_DIR` (hidden too),
 * the system bus can start services, a container daemon's socket is root. Hidden when present.
 */
export const HOST_SOCKET_PATHS: readonly string[] = [
  '/run/user',
  '/run/dbus',
  '/var/run/dbus',
  '/run/systemd/private',
  '/run/docker.sock',
  '/var/run/docker.sock',
  '/run/containerd',
  '/run/podman',
];

/** What a command may never change (readOnly, except `reopen`) or see (`hidden`). */
export interface ControlPlane {
  /** The config file and the pod's `.yoi/` state: read-only even inside a write region. */
  readonly readOnly: readonly string[];
  /** Folders inside `readOnly` that stay as the scope says (knowledge, workflows). */
  readonly reopen: readonly string[];
  /** The runtime base (every pod's socket, scope.lock), the pod's socket, the host's sockets. */
  readonly hidden: readonly string[];
}

/**
 * The pod's control plane, from its resolved config and runtime paths, as canonical paths that
 * exist (a path that does not exist cannot be mounted over; `.yoi/` is created when missing so
 * that nothing can be planted there). Paths the scope engine lists as protected
 * (`scope.protectedPaths`, when present) are read-only too.
 */
export function controlPlaneOf(pod: PodInfo, env: NodeJS.ProcessEnv = process.env): ControlPlane {
  const { config, runtime } = pod.services;
  const projectDir = config?.projectDir ?? pod.projectDir;
  const stateDir = path.join(projectDir, '.yoi');
  ensureDir(stateDir);
  const readOnly = [stateDir, config?.configPath, config?.sessions?.dir, ...scopeProtectedPaths(pod)];
  // The knowledge and workflow folders are the user's data: as the scope says.
  const reopen = [path.join(stateDir, 'knowledge'), path.join(stateDir, 'workflows'), ...scopeUserData(pod)];
  const hidden = [runtime.base, runtime.socket, env.XDG_RUNTIME_DIR, ...HOST_SOCKET_PATHS];
  return { readOnly: existing(readOnly), reopen: existing(reopen), hidden: existing(hidden) };
}

/** `scope.protectedPaths` of a scope engine that has it: strings, or objects with a `path`. */
function scopeProtectedPaths(pod: PodInfo): string[] {
  const listed = (pod.services.scope as unknown as { protectedPaths?: unknown }).protectedPaths;
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((entry: unknown) => {
    if (typeof entry === 'string') return [entry];
    // A protected key leaves its file writable: the command's result keeps the key (plantedPaths).
    if ((entry as { key?: unknown } | null)?.key !== undefined) return [];
    const p = (entry as { path?: unknown } | null)?.path;
    return typeof p === 'string' ? [p] : [];
  });
}

/** Folders the scope engine keeps writable inside a protected region (`except`: the user's data). */
function scopeUserData(pod: PodInfo): string[] {
  const listed = (pod.services.scope as unknown as { protectedPaths?: unknown }).protectedPaths;
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((entry: unknown) => {
    const except = (entry as { except?: unknown } | null)?.except;
    return Array.isArray(except) ? except.filter((e): e is string => typeof e === 'string') : [];
  });
}

function existing(paths: readonly (string | null | undefined)[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    if (!p) continue;
    const canonical = canonicalPath(p);
    if (canonical !== undefined && fs.existsSync(canonical)) out.add(canonical);
  }
  return [...out];
}

function ensureDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // read-only project: then the sandbox cannot create it either
  }
}
