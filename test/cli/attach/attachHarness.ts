import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AttachController } from '../../../cli/attach/AttachController.js';
import { AttachStore, type AttachState } from '../../../cli/attach/AttachStore.js';
import type { Block } from '../../../cli/attach/Block.js';

/** The attach client's logic without a terminal: bytes in through `type`, state out through `store`. */
export interface AttachHarness {
  store: AttachStore;
  controller: AttachController;
  quits: number;
  /** Writes raw terminal bytes (keys, escape sequences). */
  type(bytes: string): void;
  /** Writes a bracketed paste. */
  paste(text: string): void;
  /** Resolves once the state matches (polling; rejects with the last state after `timeoutMs`). */
  until(pred: (s: AttachState) => boolean, timeoutMs?: number): Promise<AttachState>;
  stop(): Promise<void>;
}

/**
 * Connects an attach client to the pod at `socketPath`. Its input history lives under
 * `env.XDG_STATE_HOME` (a fresh temp dir unless given, so tests never touch the user's).
 */
export async function attachTo(
  socketPath: string,
  opts: { now?: () => number; env?: NodeJS.ProcessEnv } = {},
): Promise<AttachHarness> {
  const store = new AttachStore();
  const env = opts.env ?? { XDG_STATE_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-state-')) };
  const h: AttachHarness = {
    store,
    controller: new AttachController({ socketPath, store, onQuit: () => h.quits++, now: opts.now, env }),
    quits: 0,
    type: (bytes) => h.controller.terminal.write(Buffer.from(bytes)),
    paste: (text) => h.controller.terminal.write(Buffer.from(`\x1b[200~${text}\x1b[201~`)),
    async until(pred, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const s = store.getState();
        if (pred(s)) return s;
        if (Date.now() > deadline) throw new Error(`timed out; state: ${describe(s)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    stop: () => h.controller.stop(),
  };
  await h.controller.start();
  return h;
}

/** The transcript as plain strings, for assertions and failure messages. */
export function texts(s: AttachState): string[] {
  return s.transcript.blocks.map(blockText);
}

export function blockText(b: Block): string {
  switch (b.kind) {
    case 'user':
      return `user: ${b.segments ? JSON.stringify(b.segments) : b.text}`;
    case 'assistant':
      return `assistant: ${b.text}`;
    case 'tool':
      return `tool ${b.name} ${b.state}`;
    case 'context':
      return `context: ${b.text}`;
    case 'notification':
      return `notification${b.source ? ` (${b.source})` : ''}: ${b.text}`;
    case 'note':
      return `${b.tone}: ${b.text}`;
  }
}

/** The input as text, with pastes as their chip labels. */
export function inputText(s: AttachState): string {
  return s.input.atoms
    .map((a) =>
      a.kind === 'char' ? a.ch : a.kind === 'paste' ? `[paste #${a.paste.id}]` : `[chip ${JSON.stringify(a.segment)}]`,
    )
    .join('');
}

function describe(s: AttachState): string {
  return JSON.stringify({
    connection: s.connection,
    status: s.transcript.status,
    queue: s.queue.length,
    notice: s.notice,
    input: inputText(s),
    blocks: texts(s),
  }).slice(0, 3000);
}
