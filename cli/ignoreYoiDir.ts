import { appendFile, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * In a git work tree, makes sure `.yoi/` (session logs and other per-project state) is ignored:
 * appends it to the `.gitignore` next to the config unless a line there already covers it.
 * Returns the file it changed, or undefined (not in a git repository, or already ignored).
 */
export async function ignoreYoiDir(dir: string): Promise<string | undefined> {
  if (!(await insideGitWorkTree(dir))) return undefined;
  const file = path.join(dir, '.gitignore');
  const text = await readFile(file, 'utf8').catch(() => '');
  const covered = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .some((l) => ['.yoi', '.yoi/', '/.yoi', '/.yoi/', '.yoi/*', '/.yoi/*', '.yoi/**'].includes(l));
  if (covered) return undefined;
  await appendFile(
    file,
    `${text === '' || text.endsWith('\n') ? '' : '\n'}# yoi: session logs and per-project state\n.yoi/\n`,
  );
  return path.relative(process.cwd(), file) || '.gitignore';
}

/** True when `dir` or a parent holds `.git` (a directory, or the file of a worktree or submodule). */
async function insideGitWorkTree(dir: string): Promise<boolean> {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (
      await stat(path.join(d, '.git')).then(
        () => true,
        () => false,
      )
    )
      return true;
    if (path.dirname(d) === d) return false;
  }
}
