import { spawn, spawnSync } from 'node:child_process';
import { BIN } from './runCli.js';

/** util-linux `script` is there to give the CLI a pseudo-terminal (suites skip without it). */
export const hasScript = spawnSync('script', ['--version']).status === 0;

/**
 * Runs `yoi ...args` on a pseudo-terminal (util-linux `script`), 100 columns wide, and resolves
 * with what reached the terminal: stdout and stderr merged, unless `redirect` (shell syntax
 * after the command, e.g. `2>/dev/null`) sends one of them elsewhere. Killed after 30 s.
 */
export function onTerminal(
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; redirect?: string },
): Promise<string> {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const command = `stty cols 100 rows 30; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')} ${opts.redirect ?? ''}`;
  return new Promise((resolve) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}
