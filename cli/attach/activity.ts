import { spinners } from 'ora';
import type { Event } from '../../core/protocol/index.js';
import type { Block } from './Block.js';

/** What a live run is doing, for the spinner line. */
export type Activity =
  | { kind: 'thinking' }
  | { kind: 'responding' }
  /** Tool calls of the current turn not finished yet: arguments streaming, or running. */
  | { kind: 'tools'; running: boolean; names: readonly string[] }
  | { kind: 'compacting' };

/** Tool blocks looked at from the end of the transcript (a turn's calls are the newest blocks). */
const RECENT_BLOCKS = 64;

/**
 * The activity after `event`, from the previous one and the transcript the event produced
 * (which holds the state of each tool call). Pure: the view adds the elapsed time.
 */
export function nextActivity(
  previous: Activity | undefined,
  event: Event,
  blocks: readonly Block[],
): Activity | undefined {
  switch (event.event) {
    case 'welcome':
      return event.data.status === 'running'
        ? { kind: 'thinking' }
        : event.data.status === 'compacting'
          ? { kind: 'compacting' }
          : undefined;
    case 'status':
      if (event.data.status === 'compacting') return { kind: 'compacting' };
      if (event.data.status !== 'running') return undefined;
      return previous === undefined || previous.kind === 'compacting' ? fromTools(blocks) : previous;
    case 'user_message':
    case 'turn_start':
      return { kind: 'thinking' };
    case 'text_delta':
      return { kind: 'responding' };
    case 'tool_call_start':
    case 'tool_call_args_delta':
    case 'tool_call_done':
    case 'tool_result':
    case 'turn_end':
      return fromTools(blocks);
    case 'compact_start':
      return { kind: 'compacting' };
    case 'run_end':
    case 'error':
    case 'shutdown':
      return event.event === 'error' && event.request_id !== undefined ? previous : undefined;
    default:
      return previous;
  }
}

/** The tools still open in the newest turn, else thinking (the model gets their results next). */
function fromTools(blocks: readonly Block[]): Activity {
  const names: string[] = [];
  let running = false;
  for (let i = blocks.length - 1; i >= Math.max(0, blocks.length - RECENT_BLOCKS); i--) {
    const b = blocks[i];
    if (b.kind === 'user') break;
    if (b.kind !== 'tool' || !(b.state === 'pending' || b.state === 'streaming' || b.state === 'running')) continue;
    names.unshift(b.name);
    if (b.state === 'running') running = true;
  }
  return names.length > 0 ? { kind: 'tools', running, names } : { kind: 'thinking' };
}

/** The spinner `yoi send` shows too (ora's default). */
export const SPINNER: { readonly interval: number; readonly frames: readonly string[] } = spinners.dots;

/** `thinking… 12s · Ctrl-C pauses`, `running Read, Grep… 1m 05s · Ctrl-C pauses`. */
export function activityText(activity: Activity, elapsedMs: number): string {
  const what =
    activity.kind === 'tools'
      ? `${activity.running ? 'running' : 'preparing'} ${unique(activity.names).join(', ')}`
      : activity.kind;
  return `${what}… ${formatElapsed(elapsedMs)} · Ctrl-C ${activity.kind === 'compacting' ? 'stops the compaction' : 'pauses'}`;
}

export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

function unique(names: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, c]) => (c > 1 ? `${n} ×${c}` : n));
}
