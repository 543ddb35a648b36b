import type { Segment } from '../../core/protocol/index.js';

export type ToolState = 'pending' | 'streaming' | 'running' | 'done' | 'error' | 'incomplete';

export type NoteTone = 'alert' | 'alert-error' | 'compact' | 'compact-error' | 'error' | 'info' | 'stats';

/**
 * One block of the transcript. `user`, `assistant`, `tool` and `context` blocks mirror history
 * items and are rebuilt from `get_history`; `note` blocks (alerts, errors, compaction lines,
 * client notices) exist only in this client and survive a rebuild when `keep` is set.
 */
export type Block =
  /** A user message: typed `segments` when known (live, or matched on replay), else history `text`. */
  | { kind: 'user'; id: number; segments?: readonly Segment[]; text?: string }
  | { kind: 'assistant'; id: number; text: string; done: boolean }
  | {
      kind: 'tool';
      id: number;
      callId: string;
      name: string;
      args: string;
      state: ToolState;
      summary?: string;
      output?: string;
    }
  /** Context the model was given (a resolved `@file`, a summary), replayed from history. */
  | { kind: 'context'; id: number; text: string }
  /**
   * A notification (a `notify` message, a child pod's report): live from the v2 `notification`
   * event (`source` known, `live` until a history rebuild shows it committed), or from history.
   */
  | { kind: 'notification'; id: number; text: string; source?: 'notify' | 'pod_event'; live?: boolean }
  | { kind: 'note'; id: number; tone: NoteTone; text: string; keep: boolean };

export type BlockOf<K extends Block['kind']> = Extract<Block, { kind: K }>;
