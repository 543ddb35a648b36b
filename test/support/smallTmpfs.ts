import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A small tmpfs mounted for one test file, so a disk can fill up for real. */
export interface SmallTmpfs {
  readonly dir: string;
  /** Writes filler files until the filesystem refuses (ENOSPC). */
  fill(): void;
  /** Removes the filler files: the space returns. */
  free(): void;
  unmount(): void;
}

/**
 * Mounts a tmpfs of `size` (`mount -t tmpfs -o size=…`), or says why it cannot (not root, no
 * mount namespace rights): the tests that need it are then skipped with that reason.
 */
export function smallTmpfs(size: string): SmallTmpfs | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'mounting a small tmpfs needs root' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-full-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    fs.rmdirSync(dir);
    return { skip: `mount -t tmpfs was refused: ${(r.error?.message ?? r.stderr).trim()}` };
  }
  let fillers = 0;
  return {
    dir,
    fill() {
      const file = path.join(dir, `filler-${fillers++}`);
      const fd = fs.openSync(file, 'w');
      const chunk = Buffer.alloc(64 * 1024, 0x66);
      try {
        // Bounded: a tmpfs of `size` takes at most size / 64 KiB chunks.
        for (let i = 0; i < 1_000_000; i++) fs.writeSync(fd, chunk);
        throw new Error(`${dir} did not fill up`);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        fs.closeSync(fd);
      }
      // What is left is less than a chunk: fill it byte-exactly too.
      const fd2 = fs.openSync(path.join(dir, `filler-${fillers++}`), 'w');
      try {
        for (let i = 0; i < 64; i++) fs.writeSync(fd2, Buffer.alloc(1024, 0x66));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        fs.closeSync(fd2);
      }
    },
    free() {
      for (const f of fs.readdirSync(dir).filter((n) => n.startsWith('filler-'))) fs.rmSync(path.join(dir, f));
    },
    unmount() {
      spawnSync('umount', ['-l', dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
