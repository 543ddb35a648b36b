import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './runCli.js';

/** `yoi host --name NAME` in the foreground; resolves once it printed `host NAME serving …`. */
export function startHostProcess(
  name: string,
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ child: ChildProcess; stderr: () => string; exited: Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'host', '--name', name], {
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
      if (new RegExp(`^host ${name} serving `, 'm').test(out)) resolve({ child, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`yoi host exited (${code}) before serving: ${err}`)));
  });
}
