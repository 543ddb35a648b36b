// Starts the built `yoi pod start` in a temp project; resolves once it listens.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export async function startPodProcess({ files = {}, name = 'bench', args = [] } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bp-'));
  for (const [rel, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), content);
  const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };
  const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
  // Started as the `yoi` executable starts it (its shebang carries the pod's Node flags).
  const { POD_NODE_FLAGS } = await import('../../dist/core/pod/podNodeFlags.js');
  const child = spawn(process.execPath, [...POD_NODE_FLAGS, bin, 'pod', 'start', '--name', name, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const socket = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^listening (.+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`pod exited with ${code}`)));
  });
  return {
    dir, socket, pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resident set size of a process, in bytes (Linux /proc). */
export function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}
