import { isDeepStrictEqual } from 'node:util';
import type { Segment } from '../../core/protocol/index.js';
import { InputBuffer } from './InputBuffer.js';
import { InputHistoryFile, MAX_HISTORY_ENTRIES } from './InputHistoryFile.js';
import type { SegmentKinds } from './SegmentKinds.js';

/** What Up/Down recalls: an earlier input, or the draft typed before browsing began. */
export type Recall = { type: 'entry'; segments: readonly Segment[] } | { type: 'draft' };

/**
 * Earlier inputs for Up/Down, like a shell's history: the project's stored inputs (loaded once
 * the pod says which project it works in) plus what was sent in this session. Browsing starts
 * at the newest; going past it returns to the draft. Storage failures never stop the client:
 * they are reported once through `onError` and the history goes on in memory.
 */
export class InputHistory {
  private entries: (readonly Segment[])[] = [];
  /** Index of the entry shown while browsing; undefined when not browsing. */
  private at: number | undefined;
  private file?: InputHistoryFile;
  private opened = false;
  /** What the input held when browsing began. */
  private draft = InputBuffer.empty;

  constructor(private readonly onError: (message: string) => void = () => undefined) {}

  get size(): number {
    return this.entries.length;
  }

  get browsing(): boolean {
    return this.at !== undefined;
  }

  /** Loads the stored inputs of the project at `projectDir` (once; later calls are ignored). */
  open(projectDir: string, env?: NodeJS.ProcessEnv): void {
    if (this.opened) return;
    this.opened = true;
    try {
      this.file = InputHistoryFile.forProject(projectDir, env);
      const stored = this.file.load();
      // Inputs sent before the pod said where it works are stored now.
      const early = this.entries;
      this.entries = [...stored, ...early].slice(-MAX_HISTORY_ENTRIES);
      for (const segments of early) this.file.append(segments, () => this.entries);
    } catch (e) {
      this.fail(e);
    }
  }

  /** Records a submitted input (not twice in a row) and stops browsing. */
  add(segments: readonly Segment[]): void {
    this.at = undefined;
    this.draft = InputBuffer.empty;
    const last = this.entries[this.entries.length - 1];
    if (last && isDeepStrictEqual(plain(last), plain(segments))) return;
    this.entries.push(segments);
    if (this.entries.length > MAX_HISTORY_ENTRIES) this.entries.shift();
    try {
      this.file?.append(segments, () => this.entries);
    } catch (e) {
      this.fail(e);
    }
  }

  /** The input before the one shown (undefined at the oldest). */
  prev(): Recall | undefined {
    const at = (this.at ?? this.entries.length) - 1;
    if (at < 0) return undefined;
    this.at = at;
    return { type: 'entry', segments: this.entries[at] };
  }

  /** The input after the one shown, or the draft after the newest (undefined when not browsing). */
  next(): Recall | undefined {
    if (this.at === undefined) return undefined;
    this.at++;
    if (this.at < this.entries.length) return { type: 'entry', segments: this.entries[this.at] };
    this.at = undefined;
    return { type: 'draft' };
  }

  /**
   * The input Up (`prev`) or Down (`next`) shows instead of `current`: an earlier input rebuilt
   * with its chips and references, or the draft; undefined when there is nothing to go to.
   */
  recall(dir: 'prev' | 'next', current: InputBuffer, kinds: SegmentKinds): InputBuffer | undefined {
    if (dir === 'prev' && !this.browsing) this.draft = current;
    const recalled = dir === 'prev' ? this.prev() : this.next();
    if (!recalled) return undefined;
    return recalled.type === 'draft' ? this.draft : InputBuffer.fromSegments(recalled.segments, kinds);
  }

  /** Editing a recalled input makes it the draft. */
  stopBrowsing(): void {
    this.at = undefined;
  }

  private fail(e: unknown): void {
    const file = this.file;
    this.file = undefined;
    this.onError(
      `input history is kept for this session only: ${e instanceof Error ? e.message : String(e)}${file ? ` (${file.file})` : ''}`,
    );
  }
}

function plain(segments: readonly Segment[]): unknown {
  return JSON.parse(JSON.stringify(segments));
}
