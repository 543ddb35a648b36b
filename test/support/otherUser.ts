import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The second local user the attack tests act as (created with useradd when missing). */
export const OTHER_USER_NAME = 'yoi-test-other';

export interface OtherUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

function lookup(): OtherUser | undefined {
  const uid = spawnSync('id', ['-u', OTHER_USER_NAME], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', OTHER_USER_NAME], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { name: OTHER_USER_NAME, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * A second local user, or why there is none (the tests that need one are then skipped with
 * that reason): creating and becoming another user takes root. Kept after the run, so
 * parallel suites share it; `useradd` racing another suite's is retried (bounded).
 */
export function otherUser(): OtherUser | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'acting as a second local user needs root (useradd, setuid)' };
  for (let attempt = 0; attempt < 20; attempt++) {
    const found = lookup();
    if (found) return found;
    const r = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER_USER_NAME], {
      encoding: 'utf8',
    });
    if (r.error) return { skip: `useradd is not available: ${r.error.message}` };
    // 9: it exists (another suite was faster); 10: /etc/passwd is locked by a concurrent useradd.
    if (r.status !== 0 && r.status !== 9 && r.status !== 10) return { skip: `useradd failed: ${r.stderr.trim()}` };
    if (r.status === 10) spawnSync('sleep', ['0.1']);
  }
  return lookup() ?? { skip: `could not create the user ${OTHER_USER_NAME}` };
}

/** Runs `code` (a node script) as `user`, to completion. */
export function runAs(
  user: OtherUser,
  code: string,
  args: string[] = [],
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['-e', code, ...args], {
    uid: user.uid,
    gid: user.gid,
    cwd: '/',
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Like {@link runAs}, throwing with her stderr when the script fails. */
export function asOther(user: OtherUser, code: string, args: string[] = []): string {
  const r = runAs(user, code, args);
  if (r.status !== 0) throw new Error(`script as ${user.name} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/**
 * Her own "pod": a Unix socket server, run as `user`, that answers every line with a v2
 * `welcome` and an `ack` (what the original attack used to receive the victim's paste and
 * answer it). Prints `listening` once bound and `connection` for every client it gets.
 */
export async function serveAs(
  user: OtherUser,
  socket: string,
): Promise<{ child: ChildProcess; connections: () => number; stop: () => void }> {
  const code = `
    const net = require('node:net');
    const server = net.createServer((c) => {
      process.stdout.write('connection\\n');
      c.on('data', () => {
        c.write(JSON.stringify({ event: 'welcome', request_id: 'r1', data: { protocol_version: 2, pod_name: 'default', session_id: 'x', status: 'idle', segment_kinds: [], pod_event_kinds: [] } }) + '\\n');
        c.write(JSON.stringify({ event: 'ack', request_id: 'r2', data: { method: 'run' } }) + '\\n');
      });
    });
    server.listen(process.argv[1], () => process.stdout.write('listening\\n'));`;
  const child = spawn(process.execPath, ['-e', code, socket], {
    uid: user.uid,
    gid: user.gid,
    cwd: '/',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => out.includes('listening\n') && resolve());
    child.once('exit', (code) => reject(new Error(`her server exited (${code}): ${err}`)));
  });
  return {
    child,
    connections: () => out.split('\n').filter((l) => l === 'connection').length,
    stop: () => child.kill('SIGKILL'),
  };
}

/**
 * A stand-in for /tmp: a fresh directory, mode 1777 (everybody may create entries, only an
 * entry's owner may remove it), so `TMPDIR` can point there and the real /tmp/yoi-* is never
 * touched.
 */
export function sharedTmp(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-shared-')));
  fs.chmodSync(dir, 0o1777);
  return dir;
}
