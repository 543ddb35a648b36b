import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN } from './runCli.js';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

/**
 * The bytes a terminal (xterm, tmux) sends for each key, written to the pane as they are:
 * `send-keys -H` types raw bytes, so the client decodes exactly what a user's terminal sends.
 */
export const KEYS = {
  enter: '\r',
  tab: '\t',
  escape: '\x1b',
  backspace: '\x7f',
  up: '\x1b[A',
  down: '\x1b[B',
  left: '\x1b[D',
  right: '\x1b[C',
  ctrlA: '\x01',
  ctrlC: '\x03',
  ctrlD: '\x04',
  ctrlE: '\x05',
  ctrlK: '\x0b',
  ctrlO: '\x0f',
  ctrlU: '\x15',
  ctrlW: '\x17',
  ctrlX: '\x18',
  ctrlY: '\x19',
  altB: '\x1bb',
  altF: '\x1bf',
  altD: '\x1bd',
  altEnter: '\x1b\r',
} as const;

export interface TmuxPane {
  /** The screen as text (`capture-pane -p -J`). */
  screen(): string;
  /** The screen with its SGR sequences (`capture-pane -e`). */
  styled(): string;
  /** Writes bytes to the pane exactly as given (one write). */
  bytes(text: string): void;
  /** Types text as a terminal sends it. */
  type(text: string): void;
  /** A bracketed paste (`paste-buffer -p`), as a terminal sends one. */
  paste(text: string): void;
  /** Polls the screen until `pred` holds (never a fixed sleep); throws with the screen on timeout. */
  until(pred: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** The pid of the process running in the pane (the shell running the command). */
  panePid(): number;
  kill(): void;
}

/**
 * Runs `yoi attach <args>` (the built CLI) in a detached tmux session of `cols`×`rows` in `dir`.
 * When the client exits the pane prints `[exit N]` and then echoes what later input looks like
 * (`cat -v`), so a terminal left in bracketed-paste mode would show `ESC[200~` around a paste.
 */
export function attachInTmux(opts: {
  dir: string;
  args: string[];
  env: Record<string, string>;
  cols?: number;
  rows?: number;
  name?: string;
}): TmuxPane {
  const sock = path.join(opts.dir, `${opts.name ?? 'tmux'}.sock`);
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-S', sock, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const env = Object.entries(opts.env)
    .map(([k, v]) => `${k}=${q(v)}`)
    .join(' ');
  const command = `env -u CI -u CONTINUOUS_INTEGRATION ${env} ${q(process.execPath)} ${q(BIN)} attach ${opts.args.map(q).join(' ')}; echo "[exit $?]"; exec cat -v`;
  tmux('new-session', '-d', '-x', String(opts.cols ?? 110), '-y', String(opts.rows ?? 40), '-c', opts.dir, command);
  const pane: TmuxPane = {
    screen: () => tmux('capture-pane', '-p', '-J'),
    styled: () => tmux('capture-pane', '-p', '-e'),
    bytes: (text) => {
      tmux('send-keys', '-H', ...[...Buffer.from(text)].map((b) => b.toString(16).padStart(2, '0')));
    },
    type: (text) => {
      tmux('send-keys', '-l', text);
    },
    paste: (text) => {
      const file = path.join(opts.dir, 'paste.txt');
      fs.writeFileSync(file, text);
      tmux('load-buffer', file);
      tmux('paste-buffer', '-p', '-d');
    },
    async until(pred, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const s = pane.screen();
        if (pred(s)) return s;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    panePid: () => Number(tmux('display-message', '-p', '#{pane_pid}').trim()),
    kill: () => {
      spawnSync('tmux', ['-S', sock, 'kill-server']);
    },
  };
  return pane;
}

/** Screen lines without trailing blanks. */
export const lines = (screen: string) => screen.split('\n').map((l) => l.trimEnd());
