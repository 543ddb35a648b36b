import type { PodClient } from '../../client/PodClient.js';
import type { AttachState } from './AttachStore.js';
import { refAtCursor } from './refTokens.js';

export interface CompleterDeps {
  state: () => AttachState;
  update: (f: (s: AttachState) => AttachState) => void;
  /** The connected client, if any. */
  client: () => PodClient | undefined;
  delayMs?: number;
}

const DEFAULT_DELAY_MS = 60;

/**
 * Completion of the reference before the cursor through the pod's `list_completions{kind,
 * prefix}`, for every kind with a sigil. Candidates are fetched while typing (debounced; stale
 * replies dropped) and listed under the input; Tab inserts one, a second Tab the next. A Tab
 * that arrives before the candidates (in the same chunk as the text, as a fast typist or a
 * terminal sends it) asks at once and is applied when they come.
 */
export class Completer {
  private timer?: NodeJS.Timeout;
  /** A Tab waiting for candidates of the reference at `start` with `prefix`. */
  private pendingTab?: { start: number; prefix: string };

  constructor(private readonly deps: CompleterDeps) {}

  dispose(): void {
    clearTimeout(this.timer);
    this.pendingTab = undefined;
  }

  /** The input changed: drops candidates that no longer fit and fetches new ones. */
  refresh(): void {
    clearTimeout(this.timer);
    const { input, completion, transcript } = this.deps.state();
    const ref = refAtCursor(input.atoms, input.cursor, transcript.kinds);
    if (!ref) {
      this.pendingTab = undefined;
      if (completion) this.deps.update((s) => ({ ...s, completion: undefined }));
      return;
    }
    if (completion && (completion.start !== ref.start || completion.kind !== ref.kind))
      this.deps.update((s) => ({ ...s, completion: undefined }));
    this.timer = setTimeout(() => this.fetch(), this.deps.delayMs ?? DEFAULT_DELAY_MS);
  }

  /** Tab: inserts the selected candidate (the next one on a repeated Tab), or waits for candidates. */
  tab(): void {
    const { input, completion, transcript } = this.deps.state();
    const ref = refAtCursor(input.atoms, input.cursor, transcript.kinds);
    if (!ref) return;
    const value = input.atoms
      .slice(ref.start + [...ref.sigil].length, ref.end)
      .map((a) => (a.kind === 'char' ? a.ch : ''))
      .join('');
    const ready =
      completion && completion.start === ref.start && completion.kind === ref.kind && completion.items.length > 0;
    if (!ready || (completion.prefix !== ref.prefix && !completion.items.includes(value))) {
      this.pendingTab = { start: ref.start, prefix: ref.prefix };
      clearTimeout(this.timer);
      this.fetch();
      return;
    }
    // A second Tab on an inserted candidate moves on to the next one.
    const selected =
      value === completion.items[completion.selected]
        ? (completion.selected + 1) % completion.items.length
        : completion.selected;
    const next = input.replace(ref.start + [...ref.sigil].length, ref.end, completion.items[selected]);
    this.deps.update((s) => ({ ...s, input: next, completion: { ...completion, selected } }));
    if (completion.items.length === 1) this.refresh(); // a directory: offer what is inside
  }

  private fetch(): void {
    const client = this.deps.client();
    const { input, transcript } = this.deps.state();
    const ref = refAtCursor(input.atoms, input.cursor, transcript.kinds);
    if (!client || !ref) return;
    client.request({ method: 'list_completions', params: { kind: ref.kind, prefix: ref.prefix } }).then(
      (reply) => {
        if (reply.event !== 'completions') return;
        const now = this.deps.state();
        const still = refAtCursor(now.input.atoms, now.input.cursor, now.transcript.kinds);
        if (!still || still.start !== ref.start || still.prefix !== ref.prefix || still.kind !== ref.kind) return;
        const { kind, sigil, prefix, start } = ref;
        this.deps.update((s) => ({
          ...s,
          completion: { kind, sigil, prefix, start, items: reply.data.items, selected: 0 },
        }));
        const tab = this.pendingTab;
        if (tab && tab.start === start && tab.prefix === prefix) {
          this.pendingTab = undefined;
          if (reply.data.items.length > 0) this.tab();
        }
      },
      () => {
        this.pendingTab = undefined;
      },
    );
  }
}
