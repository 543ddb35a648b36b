// Starts countingClients.js in a child process; `go()` starts its clock, `done` resolves with
// the elapsed milliseconds once every reading client got its deltas (or saw the run end short).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function spawnClients(socket, clients, target, { v2 = false, stalled = 0, token } = {}) {
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('countingClients.js', import.meta.url)),
      socket,
      String(clients),
      String(target),
      ...(v2 ? ['--v2'] : []),
      '--stalled',
      String(stalled),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'], env: token ? { ...process.env, BENCH_TOKEN: token } : process.env },
  );
  let out = '';
  let onReady;
  let onDone;
  const ready = new Promise((r) => (onReady = r));
  const done = new Promise((r) => (onDone = r));
  child.stdout.on('data', (d) => {
    out += d;
    if (out.includes('ready')) onReady();
    const m = /done ([\d.]+) (\d+)\n/.exec(out);
    if (m) {
      handle.short = Number(m[2]);
      onDone(Number(m[1]));
    }
  });
  /** `short`: deltas the reading clients did not get (lost to `lagged`), once `done`. */
  const handle = { ready, done, short: 0, go: () => child.stdin.write('go\n'), kill: () => child.kill() };
  return handle;
}
