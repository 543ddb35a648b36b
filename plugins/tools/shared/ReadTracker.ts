import { createHash } from 'node:crypto';
import type { PodServices } from '../../../core/api.js';

/** How the file on disk compares with what the pod last read or wrote. */
export type Freshness = 'current' | 'unread' | 'changed';

/**
 * Read-before-write for one pod: the SHA-256 of each file's content as the pod last read or
 * wrote it, by canonical path. Write and Edit refuse a file the model has not read, or one
 * that changed on disk since (someone else edited it), so they never clobber unseen content.
 * Changes to one file are serialised, so parallel edits of it apply one after the other.
 */
export class ReadTracker {
  readonly #hashes = new Map<string, string>();
  readonly #queues = new Map<string, Promise<unknown>>();

  /** The tracker shared by every tool of the pod that owns `services`. */
  static of(services: PodServices): ReadTracker {
    let tracker = trackers.get(services);
    if (!tracker) trackers.set(services, (tracker = new ReadTracker()));
    return tracker;
  }

  record(file: string, content: Uint8Array): void {
    this.#hashes.set(file, digest(content));
  }

  check(file: string, content: Uint8Array): Freshness {
    const known = this.#hashes.get(file);
    if (known === undefined) return 'unread';
    return known === digest(content) ? 'current' : 'changed';
  }

  /** Runs `fn` once every earlier change of `file` has finished. */
  exclusive<T>(file: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(file) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.#queues.set(file, settled);
    void settled.then(() => {
      if (this.#queues.get(file) === settled) this.#queues.delete(file);
    });
    return run;
  }
}

const trackers = new WeakMap<PodServices, ReadTracker>();

function digest(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
