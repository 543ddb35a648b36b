import fs from 'node:fs';
import path from 'node:path';
import { SEARCH_PLACES } from './searchPlaces.js';

/**
 * True when cosmiconfig's search from `cwd` (SEARCH_OPTIONS) is sure to find nothing: no file of
 * SEARCH_PLACES (nor a package.yaml, which also ends the search) in `cwd` or any directory above
 * it (yoi reads no cosmiconfig meta config: see configExplorer). Checks at least every path the
 * search would, so a false answer only means "ask cosmiconfig": loading cosmiconfig and js-yaml is a
 * good part of a pod's start-up, and most projects of a pod without a config have none.
 * Anything but a plain "no such file" (a denied directory, a file where a directory should be)
 * answers false too.
 */
export function surelyNoConfigFile(cwd: string): boolean {
  try {
    for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
      for (const place of [...SEARCH_PLACES, 'package.yaml']) if (exists(path.join(dir, place))) return false;
      if (path.dirname(dir) === dir) return true;
    }
  } catch {
    return false;
  }
}

function exists(file: string): boolean {
  return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
}
