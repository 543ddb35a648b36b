import type { KV } from '@nats-io/kv';

/** Most time a listing of a bucket's keys may take (every other registry call has NATS's own timeout). */
export const LIST_KEYS_DEADLINE_MS = 10_000;

/**
 * The keys of a KV bucket, at most `max`. nats.js's key iterator has no deadline of its own: it
 * ends when its consumer has delivered what the stream held, and waits on otherwise. Past
 * `deadlineMs` the listing fails with one line instead of waiting on (a `yoi pod list
 * --cluster` once waited until it was killed, 60 s).
 */
export async function listKeys(kv: KV, max: number, deadlineMs = LIST_KEYS_DEADLINE_MS): Promise<string[]> {
  const keys: string[] = [];
  const iterator = await kv.keys();
  const timer = setTimeout(
    () => iterator.stop(new Error(`listing the registry took more than ${deadlineMs / 1000} s`)),
    deadlineMs,
  );
  try {
    for await (const key of iterator) {
      keys.push(key);
      if (keys.length >= max) break;
    }
  } finally {
    clearTimeout(timer);
  }
  return keys;
}
