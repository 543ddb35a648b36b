import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `yoi` CLI to completion. */
export function yoi(
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string | Buffer; timeoutMs?: number },
): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the CLI asynchronously (for commands that must overlap, like a pod and its clients). */
export function yoiAsync(
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number },
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(opts.input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * Starts `yoi pod start` in the foreground; resolves once it printed `listening <socket>`.
 * `nodeFlags`: Node's flags before the script (the `yoi` executable's shebang has the pod's).
 */
export function startPodProcess(
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; nodeFlags?: readonly string[] },
): Promise<{ child: ChildProcess; socket: string; stderr: () => string; exited: Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), BIN, 'pod', 'start', ...args], {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^listening (.+)$/m.exec(out);
      if (m) resolve({ child, socket: m[1], stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`pod exited (${code}) before listening: ${err}`)));
  });
}
