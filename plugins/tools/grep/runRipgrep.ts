import { spawn } from 'node:child_process';
import { ToolRefusal } from '../../../core/api.js';

/** Most bytes of ripgrep output read; beyond it the search is stopped and reported partial. */
export const MAX_RG_OUTPUT_BYTES = 32 * 1024 * 1024;

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
  const { signal, onLine, separator = '\n', fds = [], maxBytes = MAX_RG_OUTPUT_BYTES } = opts;
  let rgPath: string;
  try {
    ({ rgPath } = await import('@vscode/ripgrep'));
  } catch (e) {
    throw new ToolRefusal(`ripgrep is not available: ${(e as Error).message.split('\n')[0]}`);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { stdio: ['ignore', 'pipe', 'pipe', ...fds], signal });
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
