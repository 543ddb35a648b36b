import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolRefusal } from '../../../core/api.js';

/** Most bytes of ripgrep output read; beyond it the search is stopped and reported partial. */
export const MAX_RG_OUTPUT_BYTES = 32 * 1024 * 1024;

/** `sh -c` script: limit the address space to `$1` KiB (best effort: not every system lets it), then run the rest. */
const ULIMIT_THEN_EXEC = 'ulimit -v "$1" 2>/dev/null; shift; exec "$@"';

export interface RgOptions {
  /** Kills ripgrep when it aborts (the call then rejects with its reason). */
  readonly signal: AbortSignal;
  /** Gets each output line as it arrives; `false` stops the search. */
  readonly onLine: (line: string) => boolean | void;
  /** What ends an output line (default `\n`). */
  readonly separator?: string;
  /** Descriptors handed to ripgrep as its fds 3, 4, ... (it reads them as `/dev/fd/3` ...). */
  readonly fds?: readonly number[];
  /** Output bytes read at most (default {@link MAX_RG_OUTPUT_BYTES}). */
  readonly maxBytes?: number;
  /** Text ripgrep reads as `/dev/fd/3` (instead of `fds`): the ignore rules, from no path anyone else can reach. */
  readonly fd3Text?: string;
  /** ripgrep's working directory (default the pod's). */
  readonly cwd?: string;
  /** Address space ripgrep may use (`ulimit -v`, where `/bin/sh` can set it): past it, its allocations fail. */
  readonly maxMemoryBytes?: number;
}

export interface RgRun {
  /** False when the output cap or `onLine` ended the search early. */
  complete: boolean;
  /** Output bytes read. */
  bytes: number;
}

/**
 * Runs ripgrep (the binary of `@vscode/ripgrep`) with `args`. Exit status 1 (no match) is not
 * an error; a failure with no output (bad regex, unknown type) is refused with ripgrep's own
 * words.
 */
export async function runRipgrep(args: readonly string[], opts: RgOptions): Promise<RgRun> {
  const {
    signal,
    onLine,
    separator = '\n',
    fds = [],
    maxBytes = MAX_RG_OUTPUT_BYTES,
    fd3Text,
    cwd,
    maxMemoryBytes,
  } = opts;
  let rgPath: string;
  try {
    ({ rgPath } = await import('@vscode/ripgrep'));
  } catch (e) {
    throw new ToolRefusal(`ripgrep is not available: ${(e as Error).message.split('\n')[0]}`);
  }
  return new Promise((resolve, reject) => {
    const rules = fd3Text === undefined ? undefined : unlinkedFile(fd3Text);
    let child: ReturnType<typeof spawn>;
    try {
      const [command, argv] =
        maxMemoryBytes === undefined
          ? [rgPath, args]
          : ['/bin/sh', ['-c', ULIMIT_THEN_EXEC, 'sh', String(Math.floor(maxMemoryBytes / 1024)), rgPath, ...args]];
      child = spawn(command, argv, {
        stdio: ['ignore', 'pipe', 'pipe', ...(rules === undefined ? fds : [rules])],
        signal,
        cwd,
      });
    } finally {
      if (rules !== undefined) fs.closeSync(rules); // ripgrep holds its own copy
    }
    let bytes = 0;
    let sawOutput = false;
    let stopped = false;
    let partial = '';
    let stderr = '';
    const stop = () => {
      if (stopped) return;
      stopped = true;
      child.kill('SIGKILL');
    };
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (stopped) return;
      sawOutput = true;
      bytes += Buffer.byteLength(chunk);
      const lines = (partial + chunk).split(separator);
      partial = lines.pop()!;
      for (const line of lines) {
        if (onLine(line) === false) return stop();
      }
      if (bytes > maxBytes) stop();
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    // A cancelled search rejects: its partial result must not read as "no matches".
    child.on('error', (e) => reject(signal.aborted ? signal.reason : e));
    child.on('close', (code) => {
      if (signal.aborted) return reject(signal.reason);
      if (!stopped && partial !== '') onLine(partial);
      if (stopped) return resolve({ complete: false, bytes });
      if (code === 0 || code === 1 || (code === 2 && sawOutput)) return resolve({ complete: true, bytes });
      reject(new ToolRefusal(`ripgrep: ${describeRgError(stderr) || `exit status ${code}`}`));
    });
  });
}

/**
 * A descriptor of a new file holding `text`, already unlinked (its private directory too).
 * Not a pipe: Node's child pipes are sockets, which `/dev/fd/N` cannot reopen.
 */
function unlinkedFile(text: string): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-rg-'));
  const file = path.join(dir, 'rules');
  try {
    const fd = fs.openSync(file, 'wx+', 0o600);
    try {
      fs.writeFileSync(fd, text);
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
    return fd;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** ripgrep's complaint in one line: `regex parse error: ... error: unclosed group` → the error. */
function describeRgError(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const error = lines.find((l) => l.startsWith('error:'));
  if (lines[0]?.includes('regex parse error') && error) return `invalid regex: ${error.slice('error:'.length).trim()}`;
  return lines
    .map((l) => l.replace(/^rg: /, ''))
    .join(' ')
    .slice(0, 300);
}
