import { stringifyJsonExact, stringifyWellFormed } from '../protocol/index.js';
import { chainLine } from './chainedLine.js';
import type { SessionEntry } from './SessionEntry.js';

/** One entry as its line (with the newline), after `prev`, and the history length after it. */
export function encodeEntry(
  entry: SessionEntry,
  prev: Buffer | null,
  historyLength: number,
): { text: string; hash: Buffer; historyLength: number } {
  let json: string;
  try {
    json = stringifyWellFormed(entry); // a lone surrogate would make the line unreadable on resume
  } catch {
    json = stringifyJsonExact(entry); // bigint in a raw segment payload
  }
  const after = historyLength + addedItems(entry);
  const { line, hash } = chainLine(`${json.slice(0, -1)},"history_len":${after}}`, prev);
  return { text: `${line}\n`, hash, historyLength: after };
}

/** History items an entry adds on replay (see readSession). */
function addedItems(entry: SessionEntry): number {
  switch (entry.type) {
    case 'session_start':
      return entry.history?.length ?? 0;
    case 'user_input':
    case 'items':
      return entry.items.length;
    default:
      return 0;
  }
}
