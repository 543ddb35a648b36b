import { slugProblem } from './slugProblem.js';

/** Most documents looked at for suggestions and completions. */
export const MAX_LISTED_SLUGS = 5000;

/**
 * The slugs of the `.md` documents under `dir` (`team/style` for `team/style.md`), sorted.
 * Symlinks are not followed and hidden files skipped; a missing directory has no slugs.
 */
export async function listSlugs(dir: string, signal: AbortSignal): Promise<string[]> {
  if (signal.aborted) return [];
  let files: string[];
  try {
    const { glob } = await import('tinyglobby'); // on first use, not at every pod's start
    files = await glob(['**/*.md'], { cwd: dir, onlyFiles: true, followSymbolicLinks: false, deep: 8, signal, expandDirectories: false });
  } catch {
    return [];
  }
  return files
    .map((file) => file.slice(0, -'.md'.length))
    .filter((slug) => slugProblem(slug) === undefined)
    .sort()
    .slice(0, MAX_LISTED_SLUGS);
}
