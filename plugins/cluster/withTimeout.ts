import { setTimeout as sleep } from 'node:timers/promises';

/**
 * `p`, or a rejection ("timeout") once `ms` have passed. The timer does not keep the process
 * alive: a stop bounded by it must let the process end.
 */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, sleep(ms, undefined, { ref: false }).then(() => Promise.reject(new Error('timeout')))]);
}
