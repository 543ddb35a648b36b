import { YoiError } from '../core/errors/YoiError.js';
import type { Event } from '../core/protocol/index.js';

/** The first event matching `predicate`; rejects when the connection closes or after `timeoutMs`. */
export function waitForEvent(
  subscribe: (listener: (e: Event) => void) => () => void,
  closed: Promise<void>,
  predicate: (e: Event) => boolean,
  timeoutMs: number,
): Promise<Event> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      off();
      fn();
    };
    const timer = setTimeout(
      () => settle(() => reject(new YoiError('YOI_ERR_TIMEOUT', `no matching event within ${timeoutMs} ms`))),
      timeoutMs,
    );
    const off = subscribe((e) => {
      if (predicate(e)) settle(() => resolve(e));
    });
    void closed.then(() =>
      settle(() => reject(new YoiError('YOI_ERR_CONNECTION', 'the connection to the pod closed'))),
    );
  });
}
