import path from 'node:path';
import { slugProblem } from './slugProblem.js';
import { lstatListed } from '../../../core/api.js';

/** Most documents looked at for suggestions and completions. */
export const MAX_LISTED_SLUGS = 5000;

/**
 * The slugs of the `.md` documents under `dir` (`team/style` for `team/style.md`), sorted.
 * Symlinks are not followed and hidden files skipped; a missing directory has no slugs; names a
 * directory swapped for a symlink mid-walk showed are dropped (`lstatListed`), and so are those
 * `readable` refuses (the pod's scope: a denied note's name is not suggested or completed).
 */
export async function listSlugs(
  dir: string,
  signal: AbortSignal,
  readable: (file: string) => boolean = () => true,
): Promise<string[]> {
  if (signal.aborted) return [];
  let files: string[];
  try {
    const { glob } = await import('tinyglobby'); // on first use, not at every pod's start
    files = await glob(['**/*.md'], {
      cwd: dir,
      onlyFiles: true,
      followSymbolicLinks: false,
      deep: 8,
      signal,
      expandDirectories: false,
    });
  } catch {
    return [];
  }
  // The walk read directories by path: keep only documents confirmed in their verified directory.
  const confirmed = await lstatListed(
    files.map((file) => path.join(dir, file)),
    signal,
  );
  return files
    .filter((file) => confirmed.get(path.join(dir, file))?.isFile() && readable(path.join(dir, file)))
    .map((file) => file.slice(0, -'.md'.length))
    .filter((slug) => slugProblem(slug) === undefined)
    .sort()
    .slice(0, MAX_LISTED_SLUGS);
}
