import type { Segment } from '../../core/protocol/index.js';
import type { PermissionRequest } from '../../plugins/permissions/permissionWire.js';
import { InputBuffer } from './InputBuffer.js';
import { emptyTranscript, type TranscriptState } from './transcriptReducer.js';
import type { Scroll } from './viewport.js';

export type Connection = 'connecting' | 'connected' | 'reconnecting';

/** Completion candidates for the reference before the cursor (`start..end` are atom indexes). */
export interface Completion {
  kind: string;
  sigil: string;
  prefix: string;
  start: number;
  items: readonly string[];
  /** The candidate Tab inserts next. */
  selected: number;
}

/** A question the next key answers (see AttachController). */
export type Question =
  /** Ctrl-D: shut the pod down? */
  | { kind: 'shutdown' }
  /** Enter while paused: abandon the paused run for this input? */
  | { kind: 'abandon'; segments: readonly Segment[] };

export interface AttachState {
  readonly transcript: TranscriptState;
  readonly input: InputBuffer;
  /** Inputs submitted while a run was active (or the pod unreachable), sent in order when it is idle. */
  readonly queue: readonly (readonly Segment[])[];
  readonly connection: Connection;
  readonly scroll: Scroll;
  /** A one-line hint under the input (a key's effect, a confirmation to give). */
  readonly notice?: string;
  readonly completion?: Completion;
  /** Details shown (tool arguments and output, whole notifications and context items) instead of one line each. */
  readonly showTools: boolean;
  readonly question?: Question;
  /** When this client saw the live run (or compaction) start, for the spinner's elapsed time. */
  readonly runSince?: number;
  /** Replies are rendered as markdown (the renderer is loaded after the first frame). */
  readonly markdown?: boolean;
  /** Permission asks waiting for an answer, oldest first; the first is shown as a modal (PermissionPrompt). */
  readonly asks?: readonly PermissionRequest[];
  /** The time the asks' countdown was last drawn at. */
  readonly askClock?: number;
}

export const initialAttachState: AttachState = {
  transcript: emptyTranscript,
  input: InputBuffer.empty,
  queue: [],
  connection: 'connecting',
  scroll: 'follow',
  showTools: false,
};

/**
 * The client's state and its subscribers (the ink view reads it with `useSyncExternalStore`).
 * Updates are synchronous; the view renders at most at ink's frame rate.
 */
export class AttachStore {
  private state: AttachState;
  private readonly listeners = new Set<() => void>();

  constructor(initial: AttachState = initialAttachState) {
    this.state = initial;
  }

  readonly getState = (): AttachState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  update(f: (s: AttachState) => AttachState): void {
    const next = f(this.state);
    if (next === this.state) return;
    this.state = next;
    for (const l of this.listeners) l();
  }
}
