import fs from 'node:fs';

const ENTER = '\x1b[?1049h\x1b[?2004h'; // alternate screen, bracketed paste on
const LEAVE = '\x1b[?2004l\x1b[?1049l\x1b[?25h'; // bracketed paste off, main screen, cursor shown
const SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'] as const;
const SIGNAL_NUMBER = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 } as const;

/**
 * Puts the terminal in the modes `yoi attach` needs (raw input, alternate screen, bracketed
 * paste) and returns the function that restores it. The restore also runs, once, on every other
 * way out: process exit, a terminating signal, an uncaught exception or rejection — a terminal
 * left in bracketed-paste mode would wrap every later paste in `ESC[200~` markers.
 */
export function enterTerminalModes(stdin: NodeJS.ReadStream, stdoutFd = 1): () => void {
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    process.off('exit', restore);
    for (const s of SIGNALS) process.off(s, onSignal);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    try {
      if (stdin.isTTY) stdin.setRawMode(false);
    } catch {
      // stdin already gone
    }
    try {
      fs.writeSync(stdoutFd, LEAVE); // synchronous: this may be the last thing the process does
    } catch {
      // the terminal is gone
    }
  };
  const onSignal = (signal: (typeof SIGNALS)[number]) => {
    restore();
    process.exit(128 + SIGNAL_NUMBER[signal]);
  };
  const onCrash = (error: unknown) => {
    restore();
    process.stderr.write(`yoi: ${error instanceof Error ? error.message : String(error)}\n`);
    if (process.env.YOI_DEBUG && error instanceof Error) process.stderr.write(`${error.stack ?? ''}\n`);
    process.exit(1);
  };

  process.on('exit', restore);
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  if (stdin.isTTY) stdin.setRawMode(true);
  fs.writeSync(stdoutFd, ENTER);
  return restore;
}
