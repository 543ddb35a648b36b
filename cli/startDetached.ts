import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorCode } from '../core/errors/codes.js';
import { podExitLine } from './podExitLine.js';

/**
 * Starts `yoi pod start` (without --detach) as a background process in its own session, its
 * output in `<pod dir>/pod.log`, and returns the socket path once the pod accepts connections.
 * If the pod exits first, the line of its log that says why becomes the error (`podExitLine`);
 * a pod of that name already listening is refused like `yoi pod start` in the foreground refuses
 * it. `where.cwd` is the pod's directory (default: this process's).
 */
export async function startDetached(
  argv: string[],
  flags: { name?: string; socket?: string; config?: string },
  where: { cwd?: string } = {},
): Promise<string> {
  const { resolvePodTarget } = await import('./podTarget.js');
  const { podPaths } = await import('../core/pod/runtimePaths.js');
  const { ensurePrivateDir, isSocketLive } = await import('../core/pod/podFiles.js');
  const { YoiError } = await import('../core/errors/YoiError.js');
  const { ERROR_CODES } = await import('../core/errors/codes.js');
  const target = flags.socket
    ? { name: flags.name ?? 'default', socket: path.resolve(flags.socket) }
    : await resolvePodTarget({ pod: flags.name, config: flags.config });
  const name = flags.name ?? target.name;
  const paths = podPaths(name, process.env, flags.socket);
  // As in the foreground: a live pod is not started twice (its socket answering would pass for ours).
  if (await isSocketLive(paths.socket))
    throw new YoiError('YOI_ERR_POD_RUNNING', `pod ${name} is already running (socket ${paths.socket})`);
  ensurePrivateDir(paths.base);
  ensurePrivateDir(paths.dir);
  const logFile = path.join(paths.dir, 'pod.log');
  const { RUNTIME_FILE, openOwnFile } = await import('../core/pod/trustedPath.js');
  const log = openOwnFile(logFile, RUNTIME_FILE, { create: true, append: true })!;
  // The log is appended to across starts: only what this start writes explains its exit.
  const logStart = fs.fstatSync(log).size;
  const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
  const { POD_NODE_FLAGS } = await import('../core/pod/podNodeFlags.js');
  const child = spawn(process.execPath, [...POD_NODE_FLAGS, bin, 'pod', 'start', ...argv], {
    detached: true,
    stdio: ['ignore', log, log],
    env: process.env,
    ...(where.cwd ? { cwd: where.cwd } : {}),
  });
  fs.closeSync(log);
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = code === null ? `signal ${signal}` : `exit code ${code}`));
  child.unref();
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (exited !== undefined) {
      const output = logWritten(logFile, logStart);
      if (!fs.existsSync(paths.socket)) fs.rmSync(paths.dir, { recursive: true, force: true }); // its error is reported below
      // The pod's own one-line error keeps its code (`… [YOI_ERR_CONFIG]`), not a second one.
      const last = (podExitLine(output) ?? exited).replace(/^yoi: /, '');
      const coded = /^(.*) \[(YOI_ERR_[A-Z_]+)\]$/.exec(last);
      if (coded && Object.hasOwn(ERROR_CODES, coded[2])) throw new YoiError(coded[2] as ErrorCode, coded[1]);
      throw new YoiError('YOI_ERR_CONNECTION', `the pod exited before it listened: ${last}`);
    }
    if (await isSocketLive(paths.socket, 200)) return paths.socket;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new YoiError('YOI_ERR_TIMEOUT', `the pod did not start listening within 15 s (see ${logFile})`);
}

/** What a start wrote before the pod listened (explains its exit) reads from its end, this much at most. */
const MAX_EXIT_OUTPUT = 64 * 1024;

/** The last `MAX_EXIT_OUTPUT` bytes written to `file` after `from` ('' without the file). */
function logWritten(file: string, from: number): string {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const size = fs.fstatSync(fd).size;
    const start = Math.max(from, size - MAX_EXIT_OUTPUT);
    const buffer = Buffer.alloc(Math.max(0, size - start));
    const read = fs.readSync(fd, buffer, 0, buffer.length, start);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}
