import os from 'node:os';
import path from 'node:path';
import { YoiError } from '../errors/YoiError.js';
import { podNameProblem } from './podName.js';

/** Longest Unix socket path the OS accepts (sun_path minus its NUL): Linux 107, macOS/BSD 103. */
export const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

/** `$YOI_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/yoi`, else `<os tmpdir>/yoi-<uid>` (ARCHITECTURE §4.1). @beta */
export function runtimeBase(env: NodeJS.ProcessEnv = process.env): string {
  if (env.YOI_RUNTIME_DIR) return path.resolve(env.YOI_RUNTIME_DIR);
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, 'yoi');
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(os.tmpdir(), `yoi-${uid}`);
}

/** The files of one pod under the runtime base. @beta */
export interface PodPaths {
  readonly base: string;
  readonly dir: string;
  readonly socket: string;
  readonly pid: string;
  readonly status: string;
  readonly spawnedPods: string;
  readonly log: string;
}

/** Why `name` cannot be a pod name (the one rule: see podName.ts), or undefined. @beta */
export function validatePodName(name: string): string | undefined {
  return podNameProblem(name);
}

/** The runtime files of pod `name`; an invalid name throws (it never becomes a path). @beta */
export function podPaths(name: string, env: NodeJS.ProcessEnv = process.env, socketOverride?: string): PodPaths {
  const bad = podNameProblem(name);
  if (bad) throw new YoiError('YOI_ERR_POD_NAME', bad);
  const base = runtimeBase(env);
  const dir = path.join(base, name);
  return {
    base,
    dir,
    socket: socketOverride ? path.resolve(socketOverride) : path.join(dir, 'sock'),
    pid: path.join(dir, 'pid'),
    status: path.join(dir, 'status.json'),
    spawnedPods: path.join(dir, 'spawned_pods.json'),
    log: path.join(dir, 'pod.log'),
  };
}

/** Explains why a socket path cannot be bound, before the OS answers with a bare EINVAL. @beta */
export function checkSocketPath(socket: string): string | undefined {
  const bytes = Buffer.byteLength(socket);
  if (bytes <= MAX_SOCKET_PATH_BYTES) return undefined;
  return `socket path is too long for this OS (${bytes} bytes, the limit is ${MAX_SOCKET_PATH_BYTES}): ${socket}; set YOI_RUNTIME_DIR to a shorter directory or pass --socket`;
}
