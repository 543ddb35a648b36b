import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI (`npm run build` first; `npm test` does). */
export const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

/** Runs `yoi ...args` as a child process, with YOI_CONFIG unset unless given. */
export function runCli(args: string[], { cwd, env = {} }: { cwd: string; env?: Record<string, string> }) {
  const { YOI_CONFIG: _ignored, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...inherited, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
