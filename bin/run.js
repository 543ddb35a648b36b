#!/usr/bin/env -S node --max-semi-space-size=2 --single-threaded-gc --interrupt-budget=270336 --liftoff-only
// Entry point of the `yoi` command. The shebang's flags keep a long-lived pod's young generation
// small, its GC off helper threads and its HTTP parser off TurboFan (see
// core/pod/podNodeFlags.ts) and cost short commands nothing. `--version` and the root help are
// answered without loading oclif, which costs more than the rest of a short command; everything
// else goes to oclif.
// Errors end as one line on stderr with a non-zero exit code (see cli/formatCliError.ts).
// A CommonJS script (bin/package.json): an ES-module entry would load Node's ES-module loader,
// ~7 ms of every command's start, for a file that only picks a path.
'use strict';
const { readFileSync, statSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const argv = process.argv.slice(2);
// A reader that stopped reading (`yoi history | head`) ends the command quietly, as it ends
// other tools, instead of with an unhandled EPIPE and its stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error && error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
// The bundle's stack traces name the TypeScript sources (dist/bundle/*.map) when they are
// asked for; mapping them costs start-up time, so only then.
if (process.env.YOI_DEBUG) process.setSourceMapsEnabled(true);
const rootDir = path.join(__dirname, '..');
const root = pathToFileURL(`${rootDir}/`);
let loaded;

main().catch((error) => reportError(error));

async function main() {
  if (argv[0] === '--version' || argv[0] === '-v') {
    // The same line oclif prints (its `userAgent`).
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
    process.stdout.write(
      `${pkg.oclif?.bin ?? pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`,
    );
  } else if (argv[0] === 'pod' && argv[1] === 'start' && argv[2] === '--adopt') {
    // A child pod as SpawnPod starts it (hidden flags yoi writes itself): no oclif to load.
    try {
      const { startAdoptedPod } = await bundle('pod');
      await startAdoptedPod(argv.slice(2));
    } catch (error) {
      await reportError(error);
    }
  } else if (!printPrerenderedHelp() && !(await runHot())) {
    const { run, flush } = await import('@oclif/core');
    try {
      // The root, not this file: oclif reads the nearest package.json, which here is bin's own.
      await run(argv, rootDir);
      await flush();
    } catch (error) {
      if (error?.code === 'EEXIT') {
        process.exitCode = error.oclif?.exit ?? 0;
      } else {
        await reportError(error);
      }
    }
  }
}

/**
 * The bundle (dist/bundle/), compiled with the user's V8 code cache where there is one (see
 * cli/hot/loadBundle.ts), loaded once: `role` (a pod, a client) picks the cache.
 */
function bundle(role) {
  loaded ??= new Promise((resolve) => resolve(require('../dist/bundle/load.cjs'))).then(({ loadBundle }) =>
    loadBundle(role),
  );
  return loaded;
}

/**
 * Whose code cache a hot command uses: the pod's (`pod start`, but not the short process of
 * `--detach`), `send`'s (it renders a run), or the other clients'.
 */
function hotRole() {
  if (argv[0] === 'pod' && argv[1] === 'start') return argv.includes('--detach') ? 'client' : 'pod';
  return argv[0] === 'send' ? 'send' : 'client';
}

/**
 * The commands that address a pod (`send`, `history`, `cancel` …) and `pod start`: their oclif
 * command classes run from the bundle, without oclif's command discovery (see
 * cli/hot/hotCommands.ts). False when the command line is not one of them.
 */
async function runHot() {
  try {
    const { runHotCommand } = await bundle(hotRole());
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
    return await runHotCommand(argv, pkg);
  } catch (error) {
    if (error?.code === 'EEXIT') process.exitCode = error.oclif?.exit ?? 0;
    else if (/^(ERR_)?MODULE_NOT_FOUND$/.test(error?.code) && String(error.message).includes('dist/bundle/'))
      return false;
    else await reportError(error);
    return true;
  }
}

/** One line on stderr, or a JSON object on stdout with --json (the stack too with YOI_DEBUG), and a non-zero exit code. */
async function reportError(error) {
  // Without a build (dist/ missing) the formatter is gone too; still print one line.
  const { formatCliError, cliErrorJson } = await bundle('client')
    .catch(() => import('../dist/cli/formatCliError.js'))
    .catch(() => ({
      formatCliError: (e) => ({ line: `yoi: ${String(e?.message ?? e).split('\n')[0]}`, exitCode: 1 }),
    }));
  const formatted = formatCliError(error);
  const flags = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  if (cliErrorJson && flags.includes('--json')) process.stdout.write(`${cliErrorJson(formatted)}\n`);
  else process.stderr.write(`${formatted.line}\n`);
  const { exitCode } = formatted;
  if (process.env.YOI_DEBUG) process.stderr.write(`${error?.stack ?? ''}\n`);
  process.exitCode = exitCode;
}

/**
 * `yoi`, `yoi --help`, `yoi -h`: print the root help oclif rendered at build time
 * (dist/cli/help.json, written by dist/cli/renderHelp.js after `oclif manifest`). Used only when
 * it is known to match what oclif would print now: same manifest and package.json as when it
 * was rendered, at least as many columns, no theme or column override. Returns false otherwise.
 */
function printPrerenderedHelp() {
  if (!(argv.length === 0 || (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')))) return false;
  if (process.env.OCLIF_COLUMNS || process.env.YOI_CONFIG_DIR) return false;
  try {
    const cached = JSON.parse(readFileSync(new URL('dist/cli/help.json', root), 'utf8'));
    if (process.stdout.isTTY && process.stdout.columns < cached.columns) return false;
    for (const [file, stamp] of Object.entries(cached.stamps)) {
      const info = statSync(new URL(file, root));
      if (`${info.size}:${info.mtimeMs}` !== stamp) return false;
    }
    const home = process.env.XDG_CONFIG_HOME || `${process.env.HOME}/.config`;
    if (statSync(`${home}/yoi/theme.json`, { throwIfNoEntry: false })) return false;
    const userAgent = `yoi/${cached.version} ${process.platform}-${process.arch} node-${process.version}`;
    process.stdout.write(cached.text.replaceAll(cached.userAgentMark, userAgent));
    return true;
  } catch {
    return false;
  }
}
