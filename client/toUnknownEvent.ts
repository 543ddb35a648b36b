import { parseLine } from '../core/protocol/index.js';
import type { UnknownEvent } from './PodClientOptions.js';

/** A line that is an event object this build cannot decode (a plugin's, a newer pod's), or undefined. */
export function toUnknownEvent(line: string): UnknownEvent | undefined {
  const parsed = parseLine(line);
  const value = parsed.ok ? parsed.value : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  if (typeof raw.event !== 'string') return undefined;
  const event: UnknownEvent = { event: raw.event, data: raw.data, line };
  if (typeof raw.seq === 'number') event.seq = raw.seq;
  if (typeof raw.request_id === 'string') event.request_id = raw.request_id;
  return event;
}
