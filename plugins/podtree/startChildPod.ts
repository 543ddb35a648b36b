import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { yoiBin } from './shared/yoiBin.js';
import {
  ensurePrivateDir,
  isSocketLive,
  openOwnFile,
  POD_NODE_FLAGS,
  type PodPaths,
  RUNTIME_FILE,
} from '../../core/api.js';

/** The environment variable that hands a spawned pod its report secret. */
export const POD_SECRET_ENV = 'YOI_POD_SECRET';

/** How long a spawned pod has to accept connections. */
export const SOCKET_WAIT_MS = 10_000;
/** How much of a failed child's log is shown. */
const LOG_TAIL_BYTES = 4096;

export interface ChildPodSpec {
  name: string;
  /** The child's runtime files (its socket, its log). */
  paths: PodPaths;
  /** The spawner's socket: the child reports there. */
  callback: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The spawner's config file: the child loads the same one (model, plugins...). */
  configPath: string | null;
  /** The child's report secret, handed over in its environment (not on its command line, which others can read). */
  secret: string;
  /** Digest of the config the spawner loaded: the child refuses different content unless trusted. */
  configDigest?: string;
  instruction?: string;
}

/** Why a child did not come up: one line for the summary, the tail of its log for the model. */
export class ChildStartError extends Error {
  constructor(
    message: string,
    readonly logTail: string,
  ) {
    super(message);
  }
}

/**
 * Starts `yoi pod start --adopt --callback <spawner> --name <name> [--config F --config-digest D]` as a detached process (its
 * own session and process group, so it outlives the spawner), in the spawner's working
 * directory and environment, its stdout and stderr appended to `<its pod dir>/pod.log`.
 * Resolves with its pid once its socket accepts connections. If it exits first, or does not
 * listen within 10 s (then it is killed), rejects with the end of its log.
 */
export async function startChildPod(spec: ChildPodSpec): Promise<number> {
  const { paths } = spec;
  ensurePrivateDir(paths.base);
  ensurePrivateDir(paths.dir);
  const log = openOwnFile(paths.log, RUNTIME_FILE, { create: true, append: true })!;
  const args = [yoiBin(), 'pod', 'start', '--adopt', '--callback', spec.callback, '--name', spec.name];
  if (spec.configPath) args.push('--config', spec.configPath);
  if (spec.configDigest) args.push('--config-digest', spec.configDigest);
  if (spec.instruction) args.push('--instruction', spec.instruction);
  const child = spawn(process.execPath, [...POD_NODE_FLAGS, ...args], {
    cwd: spec.cwd,
    env: { ...spec.env, YOI_RUNTIME_DIR: paths.base, [POD_SECRET_ENV]: spec.secret },
    detached: true,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = signal ? `killed by ${signal}` : `exited with code ${code}`));
  child.once('error', (e) => (exited = `could not be started: ${e.message}`));
  child.unref();
  const deadline = Date.now() + SOCKET_WAIT_MS;
  while (Date.now() < deadline) {
    if (exited !== undefined) throw failure(spec, `${exited} before listening`);
    if (fs.existsSync(paths.socket) && (await isSocketLive(paths.socket, 500))) return child.pid!;
    await sleep(5);
  }
  if (child.pid && exited === undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  throw failure(spec, `did not listen within ${SOCKET_WAIT_MS / 1000} s`);
}

function failure(spec: ChildPodSpec, what: string): ChildStartError {
  const tail = logTail(spec.paths.log);
  const last = tail
    .split('\n')
    .filter((l) => l.trim() !== '')
    .at(-1)
    ?.replace(/^yoi: /, '');
  return new ChildStartError(`spawned pod \`${spec.name}\` ${what}${last ? `: ${last}` : ''}`, tail);
}

function logTail(file: string): string {
  try {
    const text = fs.readFileSync(file);
    return text
      .subarray(Math.max(0, text.length - LOG_TAIL_BYTES))
      .toString('utf8')
      .trim();
  } catch {
    return '';
  }
}
