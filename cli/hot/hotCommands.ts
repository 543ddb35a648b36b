import type { Command } from '@oclif/core';

export type CommandClass = (new (argv: string[], config: never) => Command) & {
  id?: string;
  strict?: boolean;
  args?: unknown;
};

/**
 * The commands `bin/run.js` runs without oclif's command discovery: the ones that address a
 * running pod (and `pod start`, the pod itself), where oclif's start-up used to be most of the
 * time. Each is the very oclif command class, loaded on its own.
 */
const HOT: Record<string, () => Promise<{ default: unknown }>> = {
  send: () => import('../commands/send.js'),
  history: () => import('../commands/history.js'),
  cancel: () => import('../commands/cancel.js'),
  pause: () => import('../commands/pause.js'),
  resume: () => import('../commands/resume.js'),
  compact: () => import('../commands/compact.js'),
  'pod:status': () => import('../commands/pod/status.js'),
  'pod:stop': () => import('../commands/pod/stop.js'),
  'pod:start': () => import('../commands/pod/start.js'),
};

/**
 * The command id and its argv when the command line is one of HOT's and nothing in it needs
 * oclif itself (help flags before `--`, `DEBUG` tracing); else undefined. `YOI_NO_FAST_PATH=1`
 * sends every command line to oclif (to tell a difference between the two paths).
 */
export function hotCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { id: string; argv: string[] } | undefined {
  if (env.DEBUG || env.YOI_NO_FAST_PATH) return undefined;
  const words = argv[0] === 'pod' ? 2 : 1;
  const id = argv.slice(0, words).join(':');
  if (!(id in HOT) || argv.slice(0, words).some((w) => w.includes(':'))) return undefined;
  const rest = argv.slice(words);
  // oclif reads a word after a command that takes no arguments as part of the id (`yoi history
  // x` is the unknown command "history x"); only `send` takes arguments.
  if (id !== 'send' && rest.length > 0 && !rest[0].startsWith('-')) return undefined;
  for (const arg of rest) {
    if (arg === '--') break;
    // oclif's help flags anywhere before `--` (`--help`, and the `-h` package.json adds).
    if (arg === '--help' || arg === '-h') return undefined;
  }
  return { id, argv: rest };
}

/** Loads a hot command's class (undefined for any other id). */
export async function loadHotCommand(id: string): Promise<CommandClass | undefined> {
  const load = HOT[id];
  return load ? ((await load()).default as CommandClass) : undefined;
}
