import fs from 'node:fs';
import { atomicTempPath } from './podFiles.js';

/**
 * Keeps one file rewritten atomically without blocking: writes are asynchronous and coalesced
 * (at most one in flight; the latest content wins). `drain()` waits for the last one.
 *
 * Callbacks, not `fs.promises`: a pod rewrites status.json twice a run, and each write's
 * continuations run on the pod's thread between the run's own work. The temp file is created
 * anew (`wx`); one left by a killed pod of the same pid is removed only when it is there.
 * @beta
 */
export class AtomicFileWriter {
  private pending: string | undefined;
  private busy = false;
  private waiters: (() => void)[] = [];
  private readonly tmp: string;

  constructor(private readonly file: string) {
    this.tmp = atomicTempPath(file);
  }

  write(data: string): void {
    this.pending = data;
    if (!this.busy) this.next();
  }

  drain(): Promise<void> {
    return this.busy ? new Promise((resolve) => this.waiters.push(resolve)) : Promise.resolve();
  }

  private next(): void {
    const data = this.pending;
    if (data === undefined) {
      this.busy = false;
      for (const resolve of this.waiters.splice(0)) resolve();
      return;
    }
    this.pending = undefined;
    this.busy = true;
    this.writeOnce(data, true);
  }

  /** Errors end the attempt quietly: the runtime dir is gone (shutting down), nothing to describe. */
  private writeOnce(data: string, retry: boolean): void {
    fs.writeFile(this.tmp, data, { mode: 0o600, flag: 'wx' }, (error) => {
      if (error?.code === 'EEXIST' && retry) return fs.unlink(this.tmp, () => this.writeOnce(data, false));
      if (error) return fs.unlink(this.tmp, () => this.next());
      fs.rename(this.tmp, this.file, (renamed) => (renamed ? fs.unlink(this.tmp, () => this.next()) : this.next()));
    });
  }
}
