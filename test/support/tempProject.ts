import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A throw-away project directory: `write('a/b.ts', text)` creates files, `remove()` cleans up. */
export function tempProject(files: Record<string, string> = {}) {
  // realpath: macOS and some CI tmp dirs are symlinks, and config paths come back resolved.
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'yoi-config-')));
  const write = (file: string, text: string) => {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
    return full;
  };
  for (const [file, text] of Object.entries(files)) write(file, text);
  return {
    root,
    write,
    path: (...parts: string[]) => path.join(root, ...parts),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
