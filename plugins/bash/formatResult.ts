import os from 'node:os';
import type { RunOutcome } from './runCommand.js';
import type { ToolOutput } from '../../core/api.js';

/**
 * The model's view of a command: the summary says how it ended (exit code, signal, timeout,
 * cancel) and whether output was cut; the content is the output itself. Anything but exit code
 * 0 is an `is_error` result. A launcher error (bwrap could not build the sandbox) is said as such.
 */
export function formatResult(outcome: RunOutcome, timeoutMs: number): ToolOutput {
  const { output } = outcome;
  const cut =
    output.droppedBytes > 0
      ? ` (output cut: ${output.totalBytes - output.droppedBytes} of ${output.totalBytes} bytes shown)`
      : '';
  const content = output.text.length > 0 ? { content: output.text } : {};
  if (outcome.spawnError) return { summary: `Command could not be started: ${outcome.spawnError}`, is_error: true };
  if (outcome.ended === 'timeout') {
    return {
      summary: `Command timed out after ${timeoutMs} ms; it was killed with all its processes${cut}`,
      ...content,
      is_error: true,
    };
  }
  if (outcome.ended === 'cancelled') {
    return { summary: `Command was cancelled; it was killed with all its processes${cut}`, ...content, is_error: true };
  }
  const launcher = launcherError(outcome);
  if (launcher) return { summary: `Sandbox setup failed: ${launcher}`, ...content, is_error: true };
  if (outcome.signal) return { summary: `Command was killed by ${outcome.signal}${cut}`, ...content, is_error: true };
  const code = outcome.code ?? -1;
  const named = code > 128 ? signalName(code - 128) : undefined;
  const summary = `Command exited with code ${code}${named ? ` (${named})` : ''}${cut}`;
  return code === 0 ? { summary, ...content } : { summary, ...content, is_error: true };
}

/** bwrap writes `bwrap: <why>` on its own stderr and exits 1 when it cannot set up the sandbox. */
function launcherError(outcome: RunOutcome): string | undefined {
  const line = outcome.diagnostics.split('\n').find((l) => l.startsWith('bwrap:'));
  return line !== undefined && outcome.code === 1 ? line : undefined;
}

function signalName(n: number): string | undefined {
  return Object.entries(os.constants.signals).find(([, v]) => v === n)?.[0];
}
