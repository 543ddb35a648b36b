import { ToolRefusal } from '../../../core/api.js';
import { spawn } from 'node:child_process';

/** Most bytes of ripgrep output read; beyond it the search is stopped and reported partial. */
export const MAX_RG_OUTPUT_BYTES = 32 * 1024 * 1024;

export interface RgRun {
  /** False when the output cap or `stop()` ended the search early. */
  complete: boolean;
}

/**
 * Runs ripgrep (the binary of `@vscode/ripgrep`) with `args`, handing each output line to
 * `onLine` as it arrives (lines end with `separator`); `onLine` returns `false` to stop the search. Exit status 1 (no match)
 * is not an error; a failure with no output (bad regex, unknown type) is refused with
 * ripgrep's own words. Killed when `signal` aborts (and then rejects with its reason).
 */
export async function runRipgrep(
  args: readonly string[], signal: AbortSignal, onLine: (line: string) => boolean | void, separator = '\n',
): Promise<RgRun> {
  let rgPath: string;
  try {
    ({ rgPath } = await import('@vscode/ripgrep'));
  } catch (e) {
    throw new ToolRefusal(`ripgrep is not available: ${(e as Error).message.split('\n')[0]}`);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
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
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      sawOutput = true;
      bytes += Buffer.byteLength(chunk);
      const lines = (partial + chunk).split(separator);
      partial = lines.pop()!;
      for (const line of lines) {
        if (onLine(line) === false) return stop();
      }
      if (bytes > MAX_RG_OUTPUT_BYTES) stop();
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    // A cancelled search rejects: its partial result must not read as "no matches".
    child.on('error', (e) => reject(signal.aborted ? signal.reason : e));
    child.on('close', (code) => {
      if (signal.aborted) return reject(signal.reason);
      if (!stopped && partial !== '') onLine(partial);
      if (stopped) return resolve({ complete: false });
      if (code === 0 || code === 1 || (code === 2 && sawOutput)) return resolve({ complete: true });
      reject(new ToolRefusal(`ripgrep: ${describeRgError(stderr) || `exit status ${code}`}`));
    });
  });
}

/** ripgrep's complaint in one line: `regex parse error: ... error: unclosed group` → the error. */
function describeRgError(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const error = lines.find((l) => l.startsWith('error:'));
  if (lines[0]?.includes('regex parse error') && error) return `invalid regex: ${error.slice('error:'.length).trim()}`;
  return lines.map((l) => l.replace(/^rg: /, '')).join(' ').slice(0, 300);
}
