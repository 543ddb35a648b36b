// Starts the built `yoi pod start` in a temp project; resolves once it listens.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export async function startPodProcess({ files = {}, name = 'bench', args = [] } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bp-'));
  for (const [rel, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), content);
  const pod = await spawnPod(dir, ['--name', name, ...args]);
  return {
    dir,
    socket: pod.socket,
    pid: pod.pid,
    stop: async () => {
      await pod.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `yoi pod start <args>` in an existing project `dir` (runtime dir `<dir>/run`), started as the
 * `yoi` executable starts it (its shebang carries the pod's Node flags); resolves once it listens.
 * `stop()` sends SIGTERM and waits for the exit code.
 */
export async function spawnPod(dir, args) {
  const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };
  const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
  const { POD_NODE_FLAGS } = await import('../../dist/core/pod/podNodeFlags.js');
  const child = spawn(process.execPath, [...POD_NODE_FLAGS, bin, 'pod', 'start', ...args], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  const socket = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^listening (.+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    void exited.then((code) => reject(new Error(`pod exited with ${code}: ${stderr.trim()}`)));
  });
  return {
    socket,
    pid: child.pid,
    exited,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Resident set size of a process, in bytes (Linux /proc). */
export function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}
