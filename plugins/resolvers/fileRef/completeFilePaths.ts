import path from 'node:path';
import { isTempFileName } from '../../tools/shared/tempFiles.js';
import { MAX_PATH_BYTES } from './resolveFileRef.js';
import { type CompleteContext, lstatListed } from '../../../core/api.js';

/** Directory levels searched below the typed directory. */
const MAX_DEPTH = 8;
/** Never offered: dependency trees and VCS internals. */
const IGNORED = ['**/node_modules/**', '**/.git/**'];
const DEFAULT_LIMIT = 100;

/**
 * Completions for `@prefix`: paths relative to the cwd, in the typed directory or below it,
 * whose name starts with what follows the last `/`. Directories end with `/`. Only readable
 * paths are offered (symlinks leading out of scope are dropped), never the temp files of atomic
 * writes. Shallow first, then by name; at most `ctx.limit` items.
 */
export async function completeFilePaths(ctx: CompleteContext): Promise<string[]> {
  const prefix = typeof ctx.prefix === 'string' ? ctx.prefix : '';
  if (prefix.includes('\0') || Buffer.byteLength(prefix) > MAX_PATH_BYTES || ctx.signal.aborted) return [];
  const limit = Number.isInteger(ctx.limit) && ctx.limit > 0 ? ctx.limit : DEFAULT_LIMIT;
  const slash = prefix.lastIndexOf('/');
  const typedDir = prefix.slice(0, slash + 1);
  const namePart = prefix.slice(slash + 1);

  const scope = ctx.services.scope;
  const base = scope.check(path.resolve(ctx.cwd, typedDir || '.'), 'read');
  if (!base.ok) return [];
  let found: string[];
  try {
    // Imported when completing, not when every pod starts (like Glob does).
    const { escapePath, glob } = await import('tinyglobby');
    found = await glob([`**/${escapePath(namePart)}*`], {
      cwd: base.path,
      onlyFiles: false,
      dot: true,
      followSymbolicLinks: false,
      deep: MAX_DEPTH,
      ignore: IGNORED,
      expandDirectories: false,
      signal: ctx.signal,
    });
  } catch {
    return [];
  }
  const depth = (p: string) => p.replace(/\/$/, '').split('/').length;
  found.sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  const candidates: string[] = [];
  for (const rel of found) {
    if (candidates.length >= limit || ctx.signal.aborted) break;
    if (isTempFileName(path.basename(rel))) continue;
    if (scope.canRead(path.join(base.path, rel))) candidates.push(rel);
  }
  // The walk read directories by path: offer only entries confirmed in their verified directory.
  const full = (rel: string) => path.join(base.path, rel.replace(/\/$/, ''));
  const confirmed = await lstatListed(candidates.map(full), ctx.signal);
  return candidates.filter((rel) => confirmed.has(full(rel))).map((rel) => typedDir + rel);
}
