import fs from 'node:fs';
import path from 'node:path';
import { runRipgrep } from './runRipgrep.js';
import { closeQuietly } from './verifiedBatches.js';
import { PinnedDirSync, type Scope } from '../../../core/api.js';

/** Largest ignore file applied; a larger one is skipped, with a note. */
export const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
/**
 * Most rule bytes applied in all; ignore files past it are skipped, with a note. ripgrep's
 * matcher costs about 500 bytes of memory per byte of crafted globs (1 MiB: ~560 MB, 1 s).
 */
export const MAX_IGNORE_RULES_BYTES = 1024 * 1024;
/** Address space of the ripgrep runs that compile the rules: a backstop to the caps above. */
export const RG_LISTING_MEMORY_BYTES = 1024 * 1024 * 1024;
/** The ignore files ripgrep would read, lowest precedence first (`.rgignore` beats `.ignore` beats `.gitignore`). */
const KINDS = ['.gitignore', '.ignore', '.rgignore'] as const;
const SLICE_MS = 8;

export interface IgnoreRules {
  /** Every applied rule, rebased to `/`, as one gitignore file for `--ignore-file` (run ripgrep in `/`). */
  readonly text: string;
  /** Ignore files not applied, each with why (`a/.ignore (a symlink)`), sorted. */
  readonly skipped: readonly string[];
}

/**
 * The ignore rules a search of `base` honours, read by the pod, not by ripgrep: ripgrep opens
 * ignore files by path, following symlinks, so `.ignore -> secrets/token` made the listing an
 * oracle on a denied file, and `.rgignore -> /dev/zero` made it allocate without bound. Here
 * each `.gitignore` (in a git repository: a readable `.git` at or above it), `.ignore` and
 * `.rgignore` under `base` and in its parent directories, and `.git/info/exclude`, is applied
 * only if the scope lets the pod read it and it is a regular file of at most 1 MiB, opened
 * through its verified directory, never through a symlink. Its rules are rebased to `/` and
 * ordered so that, last match winning, precedence is ripgrep's: deeper beats shallower, and
 * `.rgignore` > `.ignore` > `.gitignore` > exclude. Unlike ripgrep: the global gitignore is not
 * read, nor symlinked ignore files, and a nested repository still gets the outer `.gitignore`.
 */
export async function ignoreRules(
  base: string,
  { scope, signal }: { scope: Scope; signal: AbortSignal },
): Promise<IgnoreRules> {
  if (!fs.lstatSync(base, { throwIfNoEntry: false })?.isDirectory()) return { text: '', skipped: [] }; // a file is searched whatever the rules say
  const found: string[] = [];
  for (let dir = base; ; dir = path.dirname(dir)) {
    for (const kind of KINDS) found.push(path.join(dir, kind));
    if (dir === path.dirname(dir)) break;
  }
  await runRipgrep(
    [
      '--no-config',
      '--no-ignore',
      '--no-messages',
      '--files',
      '--null',
      ...KINDS.map((k) => `--glob=${k}`),
      '--',
      base,
    ],
    {
      signal,
      separator: '\0',
      maxMemoryBytes: RG_LISTING_MEMORY_BYTES,
      onLine: (file) => void (file !== '' && found.push(file)),
    },
  );
  const reader = new RuleReader(scope);
  const rules: string[][] = [[], [], [], []]; // exclude, then KINDS
  const skipped: string[] = [];
  let total = 0;
  let slice = performance.now();
  const sources = [...new Set(found.map((f) => path.dirname(f)))]
    .sort()
    .flatMap((dir) => [
      { file: path.join(dir, '.git/info/exclude'), dir, kind: -1 },
      ...KINDS.map((name, kind) => ({ file: path.join(dir, name), dir, kind })),
    ]);
  const listed = new Set(found);
  try {
    for (const { file, dir, kind } of sources) {
      if (performance.now() - slice > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
      if (signal.aborted) throw signal.reason;
      if (kind === -1 ? !reader.hasGitDir(dir) : !listed.has(file) || (kind === 0 && !reader.inRepository(dir)))
        continue;
      const read = reader.read(file);
      if (read === undefined) continue;
      const shown = path.relative(base, file);
      if (typeof read !== 'string') {
        skipped.push(`${shown} (${read.why})`);
        continue;
      }
      if ((total += read.length) > MAX_IGNORE_RULES_BYTES) {
        skipped.push(`${shown} (past ${MAX_IGNORE_RULES_BYTES / 1024 / 1024} MiB of rules in all)`);
        continue;
      }
      for (const line of read.split('\n')) {
        const rule = rebaseRule(line, dir);
        if (rule !== undefined) rules[kind + 1].push(rule);
      }
    }
  } finally {
    reader.close();
  }
  return { text: rules.flat().join('\n'), skipped: skipped.sort() };
}

/**
 * One line of an ignore file in directory `dir` (canonical) as a rule of one file rooted at
 * `/`, meaning the same; `undefined` for comments, blank lines, and directories whose name a
 * line cannot hold. Parsed as ripgrep parses it (the ignore crate's `add_line`).
 */
export function rebaseRule(line: string, dir: string): string | undefined {
  return rebase(line, dir, false);
}

/**
 * A `--glob` (gitignore syntax too) matched relative to `cwd`, rebased to `/`: only one with a
 * slash depends on where it is rooted.
 */
export function rebaseGlob(glob: string, cwd: string): string | undefined {
  return rebase(glob, cwd, true);
}

function rebase(line: string, dir: string, anchoredOnly: boolean): string | undefined {
  if (/[\n\r]/.test(dir)) return anchoredOnly ? line : undefined;
  let rule = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (rule.startsWith('#')) return undefined;
  if (!rule.endsWith('\\ ')) rule = rule.trimEnd();
  const whole = rule;
  const prefix = dir.slice(1).replace(/[\\*?[\]{}!#]/g, '\\$&');
  if (prefix === '') return rule === '' ? undefined : rule;
  let negated = '';
  if (rule.startsWith('!')) [negated, rule] = ['!', rule.slice(1)];
  const absolute = rule.startsWith('/');
  if (absolute) rule = rule.slice(1);
  const stem = rule.endsWith('/') ? rule.slice(0, -1) : rule;
  if (stem === '') return undefined;
  // A slash other than a trailing one anchors the rule at its directory; else it matches at any depth below.
  const anchored = absolute || stem.includes('/');
  if (anchoredOnly && !anchored) return whole;
  return `${negated}/${prefix}/${anchored ? '' : '**/'}${rule}`;
}

/**
 * Reads ignore files through verified directories. One directory is held open at a time (the
 * files come grouped by directory): thousands of ignore files must not use up descriptors.
 */
class RuleReader {
  private held: PinnedDirSync | undefined;
  private readonly git = new Map<string, fs.Stats | undefined>();
  private readonly repository = new Map<string, boolean>();

  constructor(private readonly scope: Scope) {}

  /** A readable `.git` (directory or file) in `dir` or above: ripgrep applies `.gitignore` only there. */
  inRepository(dir: string): boolean {
    let known = this.repository.get(dir);
    if (known === undefined) {
      known = this.hasGit(dir) !== undefined || (dir !== path.dirname(dir) && this.inRepository(path.dirname(dir)));
      this.repository.set(dir, known);
    }
    return known;
  }

  hasGitDir(dir: string): boolean {
    return this.hasGit(dir)?.isDirectory() === true;
  }

  /**
   * The text of `file` (canonical), or why it is not applied, or `undefined` when it is not
   * there or the scope does not let the pod read it (said nowhere).
   */
  read(file: string): string | { why: string } | undefined {
    if (this.scope.permissionAtCanonical(file) === undefined) return undefined;
    const dir = this.pin(path.dirname(file));
    if (!dir) return undefined;
    const name = path.basename(file);
    const stats = this.lstat(dir, name);
    if (!stats) return undefined;
    if (stats.isSymbolicLink()) return { why: 'a symlink' };
    if (!stats.isFile()) return { why: 'not a regular file' };
    const fd = dir.openFile(name, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    if (fd === undefined) return undefined;
    const tooLarge = { why: `larger than ${MAX_IGNORE_FILE_BYTES / 1024 / 1024} MiB` };
    try {
      const held = fs.fstatSync(fd);
      if (!held.isFile() || held.ino !== stats.ino || held.dev !== stats.dev) return undefined; // swapped since: skipped
      if (held.size > MAX_IGNORE_FILE_BYTES) return tooLarge;
      const buffer = Buffer.alloc(MAX_IGNORE_FILE_BYTES + 1);
      let length = 0;
      for (let n; length < buffer.length && (n = fs.readSync(fd, buffer, length, buffer.length - length, length)) > 0;)
        length += n;
      if (length > MAX_IGNORE_FILE_BYTES) return tooLarge; // grew since the fstat
      return dir.isStillAt() ? buffer.toString('utf8', 0, length) : undefined;
    } catch {
      return undefined;
    } finally {
      closeQuietly(fd);
    }
  }

  close(): void {
    this.held?.close();
    this.held = undefined;
  }

  private hasGit(dir: string): fs.Stats | undefined {
    if (!this.git.has(dir)) {
      const readable = this.scope.permissionAtCanonical(path.join(dir, '.git')) !== undefined;
      const pinned = readable ? this.pin(dir) : undefined;
      this.git.set(dir, pinned && this.lstat(pinned, '.git'));
    }
    return this.git.get(dir);
  }

  private pin(dir: string): PinnedDirSync | undefined {
    if (this.held?.path === dir) return this.held;
    this.close();
    try {
      this.held = PinnedDirSync.open(dir);
    } catch {
      return undefined; // gone, unreadable, or not the directory named
    }
    return this.held;
  }

  private lstat(dir: PinnedDirSync, name: string): fs.Stats | undefined {
    try {
      return fs.lstatSync(path.join(dir.self, name), { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
  }
}
