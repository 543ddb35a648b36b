/**
 * The files a pod's tools touched recently, newest first (one entry per canonical path).
 * Compaction reads `recent(n)` to tell the model which files it was working on; tools call
 * `touch()` after a successful read or write. Bounded, so a long session stays small.
 */
export class FileActivity {
  readonly #order = new Map<string, 'read' | 'write'>();

  constructor(private readonly capacity = 20) {}

  /** Records that `file` (a canonical path) was just read or written. */
  touch(file: string, how: 'read' | 'write'): void {
    this.#order.delete(file); // re-insert: a Map iterates in insertion order, newest last
    this.#order.set(file, how);
    if (this.#order.size > this.capacity) this.#order.delete(this.#order.keys().next().value!);
  }

  /** Up to `n` paths, the most recently touched first. */
  recent(n = this.capacity): string[] {
    return [...this.#order.keys()].reverse().slice(0, Math.max(0, n));
  }

  /** How the file was last touched, if it is among the recent ones. */
  lastAccess(file: string): 'read' | 'write' | undefined {
    return this.#order.get(file);
  }
}
