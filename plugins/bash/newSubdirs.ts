import fs from 'node:fs';
import path from 'node:path';
import type { Scope } from '../../core/api.js';

/** Per target of a non-recursive rule, its direct subdirectories (names) when first seen. */
export type SubdirSnapshot = Map<string, ReadonlySet<string>>;

/**
 * Adds the subdirectories of every non-recursive rule's target not in `into` yet. planMounts gives
 * each existing subdirectory its own mount; one created later falls under the target's mount, so
 * a writable target lets a command build a tree where the scope grants nothing (see
 * {@link removeNewSubdirs}).
 */
export function snapshotSubdirs(scope: Scope, into: SubdirSnapshot): void {
  for (const rule of [...scope.allowRules, ...scope.denyRules, ...scope.locks]) {
    if (rule.recursive || into.has(rule.target)) continue;
    into.set(rule.target, new Set(subdirs(rule.target)));
  }
}

/**
 * Removes what the commands created in subdirectories that are not in `snapshot`, wherever the
 * scope does not grant write (the entries themselves, never what a link points to). One line per
 * such subdirectory. Call it only when no command of the pod runs.
 */
export async function removeNewSubdirs(snapshot: SubdirSnapshot, scope: Scope): Promise<string[]> {
  const lines: string[] = [];
  for (const [target, known] of snapshot) {
    for (const name of subdirs(target)) {
      if (known.has(name)) continue;
      const dir = path.join(target, name);
      const pruned = { removed: [] as string[], failed: [] as string[] };
      await prune(dir, scope, pruned);
      if (pruned.removed.length > 0) {
        const more = pruned.removed.length - SHOWN;
        const list = pruned.removed.slice(0, SHOWN).join(', ') + (more > 0 ? ` and ${more} more` : '');
        lines.push(
          `removed ${list}: outside the pod's write scope (the rule for ${target} is not recursive: nothing below its subdirectories is writable)`,
        );
      }
      lines.push(...pruned.failed);
    }
  }
  return lines;
}

/** Removed paths named in a result line; the rest are counted. */
const SHOWN = 5;

async function prune(p: string, scope: Scope, out: { removed: string[]; failed: string[] }): Promise<void> {
  if (scope.permissionAtCanonical(p) !== 'write') {
    try {
      await fs.promises.rm(p, { recursive: true, force: true });
      out.removed.push(p);
    } catch (error) {
      out.failed.push(`could not remove ${p}, outside the pod's write scope: ${(error as Error).message}`);
    }
    return;
  }
  let entries: string[];
  try {
    if (!(await fs.promises.lstat(p)).isDirectory()) return;
    entries = await fs.promises.readdir(p);
  } catch {
    return;
  }
  for (const entry of entries) await prune(path.join(p, entry), scope, out);
}

/** Names of the directories (not links) directly in `dir`; none when it cannot be read. */
function subdirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}
