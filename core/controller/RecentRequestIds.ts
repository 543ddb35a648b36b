/**
 * Request ids seen recently, per key (the reporting pod), so a report a child retried after a
 * lost `ack` is acknowledged again but applied once. Bounded: the newest `perKey` ids of the
 * `maxKeys` most recently active keys.
 */
export class RecentRequestIds {
  private readonly byKey = new Map<string, Set<string>>();

  constructor(
    private readonly perKey = 1024,
    private readonly maxKeys = 256,
  ) {}

  /** Whether `id` is recorded under `key` (recency unchanged). */
  has(key: string, id: string): boolean {
    return this.byKey.get(key)?.has(id) ?? false;
  }

  /** Every key's ids, oldest key and id first. */
  entries(): Record<string, string[]> {
    return Object.fromEntries([...this.byKey].map(([key, ids]) => [key, [...ids]]));
  }

  /** Records `id` under `key`; false when it was already recorded. */
  add(key: string, id: string): boolean {
    let ids = this.byKey.get(key);
    if (ids) {
      this.byKey.delete(key); // re-inserted below: Map order is recency
    } else {
      ids = new Set();
      if (this.byKey.size >= this.maxKeys) this.byKey.delete(this.byKey.keys().next().value!);
    }
    this.byKey.set(key, ids);
    if (ids.has(id)) return false;
    ids.add(id);
    if (ids.size > this.perKey) ids.delete(ids.values().next().value!);
    return true;
  }
}
