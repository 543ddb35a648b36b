import fs from 'node:fs';
import { ignoreRules, rebaseGlob, RG_LISTING_MEMORY_BYTES } from './ignoreRules.js';
import { MAX_RG_OUTPUT_BYTES, runRipgrep, type RgRun } from './runRipgrep.js';
import { closeQuietly, verifiedBatches, type VerifiedBatch } from './verifiedBatches.js';
import { isWithin, type Scope } from '../../../core/api.js';

/**
 * What every ripgrep run gets: no user config, no ignore file read by ripgrep (the pod reads
 * them: `ignoreRules`), no colours, no complaints about unreadable files.
 */
const COMMON_ARGS = ['--no-config', '--no-ignore', '--color=never', '--no-messages'];
/** ripgrep's name for the descriptor handed to it as fd `n` (`/dev/fd/3` is the first). */
const FD_PATH = /^\/dev\/fd\/(\d+)$/;

export interface SearchPlan {
  /** The canonical file or directory searched. */
  readonly base: string;
  /** What selects files in the walk (`--glob`, `--type`). */
  readonly listArgs: readonly string[];
  /** The search itself: output mode, case, context, and `--regexp=<pattern>`. */
  readonly searchArgs: readonly string[];
  /** What ends an output line of the search. */
  readonly separator: string;
  /** The `/dev/fd/N` path an output line is about (undefined for lines about no file). */
  fileOf(line: string): string | undefined;
}

export interface SearchOutcome {
  /** False when the output caps stopped the search early. */
  readonly complete: boolean;
  /** FIFOs, sockets and devices met on the way (sorted): never opened, not searched. */
  readonly skipped: readonly string[];
  /** Ignore files not applied, each with why (`ignoreRules`). */
  readonly ignoreSkipped: readonly string[];
}

/**
 * Runs a ripgrep search that reads only files the pod verified. ripgrep opens what it walks by
 * path, so a directory swapped for a symlink mid-walk would make it read another directory:
 * here its walk only lists names (`--files`: hidden files skipped, globs and types honoured,
 * sorted by path; ignore files honoured as the pod read and verified them, `ignoreRules`); each listed file is then opened by the pod through its
 * verified directory (`verifiedBatches`), and ripgrep searches those descriptors
 * (`/dev/fd/N`), never a path. `onFile` gets each file's output lines, in the walk's order.
 */
export async function searchVerified(
  plan: SearchPlan,
  { scope, signal, batchFiles }: { scope: Scope; signal: AbortSignal; batchFiles?: number },
  onFile: (file: string, lines: readonly string[]) => void,
): Promise<SearchOutcome> {
  const rules = await ignoreRules(plan.base, { scope, signal });
  const listed: string[] = [];
  const listing = await runRipgrep(
    [
      ...COMMON_ARGS,
      ...(rules.text ? ['--ignore-file=/dev/fd/3'] : []),
      '--files',
      '--null',
      '--sort=path',
      ...rootedAtSlash(plan.listArgs, plan.base),
      '--',
      plan.base,
    ],
    {
      signal,
      separator: '\0',
      onLine: (file) => void (file !== '' && listed.push(file)),
      cwd: '/', // where the rules are rooted
      maxMemoryBytes: RG_LISTING_MEMORY_BYTES,
      ...(rules.text ? { fd3Text: rules.text } : {}),
    },
  );
  const skipped = new Set<string>();
  const outcome = (complete: boolean): SearchOutcome => ({
    complete,
    skipped: [...skipped].sort(),
    ignoreSkipped: rules.skipped,
  });
  let budget = MAX_RG_OUTPUT_BYTES;
  let searched = false;
  const batches = verifiedBatches(listed, { base: plan.base, scope, signal, skipped, batchFiles });
  let next = batches.next();
  try {
    for (;;) {
      const { value: batch, done } = await next;
      if (done) break;
      next = batches.next(); // the pod opens the next files while ripgrep searches these
      searched = true;
      const run = await searchBatch(plan, batch, { signal, maxBytes: budget }, onFile);
      budget -= run.bytes;
      if (!run.complete) return outcome(false);
    }
  } finally {
    // Stopped early (output cap, error, abort): close what was opened ahead.
    const ahead = await next.catch(() => undefined);
    if (ahead && !ahead.done) closeAll(ahead.value);
    await batches.return(undefined);
  }
  if (signal.aborted) throw signal.reason;
  // Nothing to search: still let ripgrep judge the pattern (over empty input), so a bad one is reported.
  if (!searched) await runRipgrep([...COMMON_ARGS, ...plan.searchArgs, '-'], { signal, onLine: () => undefined });
  return outcome(listing.complete);
}

/**
 * `--glob`s with a slash are matched relative to ripgrep's working directory, the pod's (for a
 * `base` outside it, against the whole path): the listing runs in `/` (where the ignore rules
 * are rooted), so they are rebased there.
 */
function rootedAtSlash(listArgs: readonly string[], base: string): string[] {
  let cwd: string;
  try {
    cwd = fs.realpathSync(process.cwd());
  } catch {
    cwd = '/';
  }
  const args: string[] = [];
  listArgs.forEach((arg, i) => {
    if (listArgs[i - 1] !== '--glob') return void (arg !== '--glob' && args.push(arg));
    const glob = isWithin(base, cwd) ? rebaseGlob(arg, cwd) : arg;
    if (glob !== undefined) args.push('--glob', glob);
  });
  return args;
}

/** One ripgrep run over a batch's descriptors; `onFile` gets the files with output, in listing order. */
async function searchBatch(
  plan: SearchPlan,
  batch: VerifiedBatch,
  { signal, maxBytes }: { signal: AbortSignal; maxBytes: number },
  onFile: (file: string, lines: readonly string[]) => void,
): Promise<RgRun> {
  const byFile = new Map<number, string[]>();
  let run: RgRun;
  try {
    run = await runRipgrep([...COMMON_ARGS, ...plan.searchArgs, '--', ...batch.fds.map((_, i) => `/dev/fd/${i + 3}`)], {
      signal,
      separator: plan.separator,
      fds: batch.fds,
      maxBytes,
      onLine: (line) => {
        const index = Number(FD_PATH.exec(plan.fileOf(line) ?? '')?.[1]) - 3;
        if (!(index >= 0 && index < batch.files.length)) return;
        let lines = byFile.get(index);
        if (!lines) byFile.set(index, (lines = []));
        lines.push(line);
      },
    });
  } finally {
    closeAll(batch);
  }
  // ripgrep searches its inputs in parallel: put the files back in the listing's order.
  for (const index of [...byFile.keys()].sort((a, b) => a - b)) onFile(batch.files[index], byFile.get(index)!);
  return run;
}

function closeAll(batch: VerifiedBatch): void {
  for (const fd of batch.fds) closeQuietly(fd);
}
