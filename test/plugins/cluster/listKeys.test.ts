import { expect, it } from '@jest/globals';
import type { KV } from '@nats-io/kv';
import { listKeys } from '../../../plugins/cluster/listKeys.js';

/** A bucket whose key iterator yields `keys`, then waits (as nats.js's does until its consumer is done) unless `ends`. */
function bucket(keys: string[], ends: boolean): KV {
  return {
    keys: async () => {
      let stopped: ((e?: Error) => void) | undefined;
      const iterator = {
        stop: (err?: Error) => stopped?.(err),
        async *[Symbol.asyncIterator]() {
          for (const k of keys) yield k;
          if (ends) return;
          await new Promise<void>((resolve, reject) => (stopped = (e) => (e ? reject(e) : resolve())));
        },
      };
      return iterator as unknown as Awaited<ReturnType<KV['keys']>>;
    },
  } as unknown as KV;
}

it('lists the keys of a bucket whose iterator ends, at most max', async () => {
  await expect(listKeys(bucket(['a', 'b', 'c'], true), 10, 1000)).resolves.toEqual(['a', 'b', 'c']);
  await expect(listKeys(bucket(['a', 'b', 'c'], false), 2, 1000)).resolves.toEqual(['a', 'b']);
});

it('fails in one line, past its deadline, on an iterator that never ends', async () => {
  await expect(listKeys(bucket(['a'], false), 10, 200)).rejects.toThrow(/^listing the registry took more than 0\.2 s$/);
});
