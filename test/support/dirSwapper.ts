import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/**
 * The attacker of the directory-swap race: a real python3 process that exchanges two paths
 * (an in-scope directory and a symlink to an outside directory) with `renameat2(RENAME_EXCHANGE)`
 * in a tight loop, so every path walk of the pod may see either. It swaps for at most
 * `maxSeconds` (so it never outlives a failed test), stops on SIGTERM, puts both paths back
 * as they were and reports how many swaps it made.
 */
const SCRIPT = String.raw`
import ctypes, os, signal, sys, time
libc = ctypes.CDLL(None, use_errno=True)
swap = libc.renameat2
swap.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
AT_FDCWD, RENAME_EXCHANGE = -100, 2
a, b, limit = sys.argv[1].encode(), sys.argv[2].encode(), float(sys.argv[3])
stop = False
def on_term(*_):
    global stop
    stop = True
signal.signal(signal.SIGTERM, on_term)
def exchange():
    if swap(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
        print("error " + os.strerror(ctypes.get_errno()), flush=True)
        sys.exit(2)
exchange(); exchange()
print("ready", flush=True)
n, deadline = 0, time.monotonic() + limit
while not stop and time.monotonic() < deadline:
    exchange()
    n += 1
if n % 2:
    exchange()
print("swaps %d" % n, flush=True)
`;

/** Why the swapper cannot run here (no python3, no renameat2), or undefined when it can. */
export function swapperUnavailable(): string | undefined {
  const probe = spawnSync('python3', ['-c', 'import ctypes; ctypes.CDLL(None).renameat2'], { encoding: 'utf8' });
  if (probe.error) return `python3 is not available (${probe.error.message})`;
  if (probe.status !== 0) return `renameat2 is not available through ctypes: ${probe.stderr.trim().split('\n').pop()}`;
  return undefined;
}

export interface DirSwapper {
  /** Stops swapping (both paths back as they were) and resolves with the number of swaps. */
  stop(): Promise<number>;
}

/** Starts swapping `a` and `b`; resolves once the first exchanges worked. */
export function startDirSwapper(a: string, b: string, maxSeconds = 60): Promise<DirSwapper> {
  const child: ChildProcess = spawn('python3', ['-c', SCRIPT, a, b, String(maxSeconds)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('ready\n')) {
        resolve({
          async stop() {
            child.kill('SIGTERM');
            await exited;
            const m = /swaps (\d+)/.exec(out);
            if (!m) throw new Error(`the swapper failed: ${out}${err}`);
            return Number(m[1]);
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`the swapper exited (${code}) before it was ready: ${out}${err}`)));
  });
}
