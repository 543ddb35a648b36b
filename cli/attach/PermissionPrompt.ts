import type { PodClient, UnknownEvent } from '../../client/PodClient.js';
import type { Decision } from '../../plugins/permissions/permissionsConfig.js';
import type { PermissionRequest } from '../../plugins/permissions/permissionWire.js';
import { parseRequest, parseResolved } from '../permissionLines.js';
import type { AttachState } from './AttachStore.js';
import type { Intent } from './keyIntent.js';
import { modalKey } from './permissionModal.js';
import { addNote } from './transcriptReducer.js';

export interface PermissionPromptParts {
  update: (f: (s: AttachState) => AttachState) => void;
  state: () => AttachState;
  client: () => PodClient | undefined;
  now: () => number;
}

/** Asks kept on screen at most (a pod holds at most 100 pending). */
const MAX_ASKS = 100;
/** How often the countdown is redrawn. */
const TICK_MS = 1000;

/**
 * The permission asks of `yoi attach`: `permission_request` events (the pod re-sends the
 * pending ones on every connect) queue up in `state.asks`, the oldest shown as a modal; a single
 * key answers it with `permission_reply`; `permission_resolved` (from anyone: another client,
 * the deadline, a cancel) takes it off and leaves a note in the transcript. A clock redraws the
 * countdown while asks are shown.
 */
export class PermissionPrompt {
  private timer?: NodeJS.Timeout;
  /** What the asks answered here were about, for the note their resolution leaves. */
  private readonly answered = new Map<string, string>();

  constructor(private readonly p: PermissionPromptParts) {}

  /** An event the protocol does not define: the permission ones are handled, others ignored. */
  onUnknownEvent(event: UnknownEvent): void {
    if (event.event === 'permission_request') {
      const request = parseRequest(event.data);
      if (!request) return;
      this.p.update((s) => {
        const asks = s.asks ?? [];
        if (asks.some((a) => a.id === request.id) || asks.length >= MAX_ASKS) return s;
        return { ...s, asks: [...asks, request], askClock: this.p.now() };
      });
      this.tick();
    } else if (event.event === 'permission_resolved') {
      const resolved = parseResolved(event.data);
      if (!resolved) return;
      this.p.update((s) => {
        const asks = s.asks ?? [];
        const about = asks.find((a) => a.id === resolved.id)?.summary ?? this.answered.get(resolved.id) ?? resolved.id;
        const said = `[permission] ${about}: ${resolved.decision} (${resolved.by})${resolved.message ? ` — ${resolved.message}` : ''}`;
        return {
          ...s,
          asks: asks.filter((a) => a.id !== resolved.id),
          transcript: addNote(s.transcript, 'info', said),
        };
      });
    }
  }

  /** The connection dropped: the pod re-sends what is still pending when it is back. */
  reset(): void {
    this.p.update((s) => (s.asks?.length ? { ...s, asks: [] } : s));
  }

  /** A key while an ask is shown; true when the modal took it. */
  handle(intent: Intent): boolean {
    const ask = this.p.state().asks?.[0];
    if (!ask) return false;
    const key = modalKey(ask, intent);
    if (key === undefined) return false;
    if (key !== 'block') this.answer(ask, key);
    return true;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private answer(ask: PermissionRequest, decision: Decision): void {
    const client = this.p.client();
    if (!client) return this.note('error', `[permission] not connected to the pod: ${ask.id} is still pending`);
    // Off the screen at once; the pod's permission_resolved leaves the note.
    this.answered.set(ask.id, ask.summary);
    if (this.answered.size > MAX_ASKS) this.answered.delete(this.answered.keys().next().value!);
    this.p.update((s) => ({ ...s, asks: (s.asks ?? []).filter((a) => a.id !== ask.id) }));
    client.requestExtension('permission_reply', { id: ask.id, decision }).catch((e: Error) => {
      this.note('error', `[permission] ${e.message}`);
    });
  }

  private note(tone: 'info' | 'error', text: string): void {
    this.p.update((s) => ({ ...s, transcript: addNote(s.transcript, tone, text) }));
  }

  /** Redraws the countdown each second while asks are shown. */
  private tick(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.p.state().asks?.length) return;
      this.p.update((s) => ({ ...s, askClock: this.p.now() }));
      this.tick();
    }, TICK_MS);
    this.timer.unref?.();
  }
}
