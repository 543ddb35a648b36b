import { hotCommand, loadHotCommand, type CommandClass } from './hotCommands.js';

/**
 * What an oclif command reads of its `Config` while it runs (`bin` and `userAgent` for its debug
 * logger, the env-var scope, and `runHook` for `preparse`). yoi and its plugins tap no hook a
 * command run fires (only `init`, which acts on unknown commands), so none runs here.
 */
function commandConfig(
  pkg: { name: string; version: string; oclif?: { bin?: string } },
  id: string,
  Cmd: CommandClass,
) {
  const bin = pkg.oclif?.bin ?? pkg.name;
  const scoped = (k: string) => `${bin.toUpperCase().replace(/-/g, '_')}_${k}`;
  return {
    bin,
    name: pkg.name,
    version: pkg.version,
    topicSeparator: ' ',
    userAgent: `${bin}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}`,
    scopedEnvVarKey: scoped,
    scopedEnvVarKeys: (k: string) => [scoped(k)],
    scopedEnvVar: (k: string) => process.env[scoped(k)],
    runHook: async () => ({ successes: [], failures: [] }),
    // What a deprecation check (none of these commands is deprecated) reads to find the id.
    commandIDs: [id],
    findCommand: (wanted: string) => (wanted === id ? { id, strict: Cmd.strict, args: Cmd.args } : undefined),
  };
}

/**
 * Runs a pod-addressing command (see HOT) without loading oclif's command discovery: the same
 * command class, parsed by oclif's parser, erroring through the same `catch`. Returns false when
 * the command line is not one of them (bin/run.js then hands it to oclif). An `EEXIT` is rethrown
 * as oclif's `run` would; bin/run.js handles it in both paths.
 */
export async function runHotCommand(
  argv: string[],
  pkg: { name: string; version: string; oclif?: { bin?: string } },
): Promise<boolean> {
  const hot = hotCommand(argv);
  if (!hot) return false;
  const Cmd = await loadHotCommand(hot.id);
  if (!Cmd) return false;
  Cmd.id = hot.id;
  const cmd = new Cmd(hot.argv, commandConfig(pkg, hot.id, Cmd) as never);
  await (cmd as unknown as { _run(): Promise<unknown> })._run();
  // Loaded only now: oclif's error modules behind it are a fifth of a pod's start-up (an adopted
  // pod, which the bundle's entry also serves, never needs them).
  const { flush } = await import('@oclif/core/flush');
  await flush();
  return true;
}
