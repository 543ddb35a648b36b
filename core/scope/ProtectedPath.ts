import path from 'node:path';
import { canonicalPath } from './canonicalPath.js';
import { isWithin } from './ruleMatches.js';

/** A path of the pod's control plane, as the pod hands it to {@link Scope.protect}. */
export interface ProtectedPathInput {
  /** A file or directory (everything below a directory is protected too). */
  readonly path: string;
  /** What it is to the pod, for the refusal: `its config`, `its state`. */
  readonly what: string;
  /** Paths below `path` that stay as the scope says (the user's data inside `.yoi/`). */
  readonly except?: readonly string[];
  /**
   * Only this top-level key of the JSON file at `path` is protected (a package.json's `yoi`);
   * the file stays as the scope says, and tools that write it keep the key as it was.
   */
  readonly key?: string;
}

/** A protected path as the scope holds it: canonical, frozen. */
export interface ProtectedPath {
  readonly path: string;
  readonly what: string;
  readonly except: readonly string[];
  readonly key?: string;
}

/** Canonical form (a path that does not exist yet keeps its lexical absolute form). */
export function resolveProtected(input: ProtectedPathInput, baseDir: string): ProtectedPath {
  const canonical = (p: string) => canonicalPath(p, baseDir) ?? path.resolve(baseDir, p);
  return Object.freeze({
    path: canonical(input.path),
    what: input.what,
    except: Object.freeze((input.except ?? []).map(canonical)),
    ...(input.key !== undefined ? { key: input.key } : {}),
  });
}

/** Whether `entry` protects the canonical path `p` as a whole (a key entry protects only its key). */
export function protects(entry: ProtectedPath, p: string): boolean {
  return entry.key === undefined && isWithin(p, entry.path) && !entry.except.some((e) => isWithin(p, e));
}
