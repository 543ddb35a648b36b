import fs from 'node:fs';
import path from 'node:path';
import { ToolRefusal } from '../../../core/api.js';

/** Refuses a search base that is not a directory. */
export async function requireDirectory(dir: string): Promise<void> {
  const stats = await fs.promises.stat(dir).catch(() => undefined);
  if (!stats) throw new ToolRefusal(`${dir} does not exist`);
  if (!stats.isDirectory()) throw new ToolRefusal(`${dir} is not a directory`);
}

/**
 * A glob pattern that stays below its base directory: absolute patterns and `..` segments are
 * refused (the directory goes in `path`), so a search never walks outside what was checked.
 */
export function safePattern(pattern: string): string {
  if (path.isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..')) {
    throw new ToolRefusal(
      `the pattern ${pattern} must stay below the search directory: give the directory as \`path\` and a relative pattern`,
    );
  }
  return pattern;
}
