import fs from 'node:fs';
import path from 'node:path';
import { parseJson, SegmentSchema, type Segment } from '../protocol/index.js';
import type { HistoryItem } from '../history/HistoryItem.js';
import { SessionEntrySchema, type SessionEntry, type SessionEntryOf } from './SessionEntry.js';

/** What a session log holds, replayed. */
export interface SessionState {
  readonly sessionId: string;
  readonly file: string;
  readonly start: SessionEntryOf<'session_start'>;
  readonly history: HistoryItem[];
  /** Typed segments of each user input, by index of its user message item in `history`. */
  readonly userInputs: { index: number; segments: Segment[] }[];
  /** The next turn number (turns are counted over the whole session). */
  readonly nextTurn: number;
  /** The last run had no `run_end` (the pod stopped mid-run). */
  readonly interrupted: boolean;
  /** Lines that could not be read (a torn last line is not counted). */
  readonly skippedLines: number;
  /** `plugin` entries' data, by plugin, in log order. */
  readonly plugins: ReadonlyMap<string, readonly unknown[]>;
}

/**
 * Replays a session log. A torn last line (a crash mid-write) is ignored; an unreadable line in
 * the middle is skipped and counted, so one damaged line never loses the rest of a session.
 */
export function readSession(file: string): SessionState {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const torn = lines.length > 0 && lines[lines.length - 1] !== '';
  const entries: SessionEntry[] = [];
  let skipped = 0;
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      entries.push(SessionEntrySchema.parse(parseJson(line)));
    } catch {
      if (!(torn && i === lines.length - 1)) skipped++;
    }
  });
  const start = entries[0];
  if (!start || start.type !== 'session_start') throw new Error(`${file} is not a yoi session log (no session_start)`);

  const history: HistoryItem[] = [...(start.history ?? [])];
  const userInputs: SessionState['userInputs'] = [];
  let nextTurn = 0;
  let open = false;
  const plugins = new Map<string, unknown[]>();
  for (const e of entries.slice(1)) {
    switch (e.type) {
      case 'user_input': {
        const segments = e.segments.flatMap((s) => {
          const r = SegmentSchema.safeParse(s);
          return r.success ? [r.data] : [];
        });
        userInputs.push({ index: history.length, segments });
        const [user, ...context] = e.user_text ? withUserText(e.items, e.user_text, e.segments) : e.items;
        history.push(user?.type === 'message' ? { ...user, segments } : user, ...context);
        open = true;
        break;
      }
      case 'items':
        history.push(...e.items);
        open = true;
        break;
      case 'usage':
        nextTurn = Math.max(nextTurn, e.turn + 1);
        break;
      case 'run_end':
        open = false;
        break;
      case 'plugin':
        plugins.set(e.plugin, [...(plugins.get(e.plugin) ?? []), e.data]);
        break;
    }
  }
  return { sessionId: start.session_id, file, start, history, userInputs, nextTurn, interrupted: open, skippedLines: skipped, plugins };
}

/** Rebuilds the user message's text from its parts (see SessionEntry `user_text`). */
function withUserText(items: HistoryItem[], parts: (string | number)[], segments: unknown[]): HistoryItem[] {
  const text = parts
    .map((p) => (typeof p === 'string' ? p : String((segments[p] as { content?: unknown } | undefined)?.content ?? '')))
    .join('');
  const [first, ...rest] = items;
  return first?.type === 'message' ? [{ ...first, content: [{ type: 'text', text }] }, ...rest] : items;
}

/** Session files of a directory, newest first (uuidv7 names sort by creation time). */
export function listSessions(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.jsonl'))
    .sort()
    .reverse()
    .map((n) => path.join(dir, n));
}
