import fs from 'node:fs';
import path from 'node:path';
import { SEARCH_PLACES } from './searchPlaces.js';

/**
 * What cosmiconfig reads before searching: its own "meta config" in the process's cwd, which
 * can add search places (a package.json key, package.yaml, `.config/config.*`).
 */
const META_PLACES = ['package.json', 'package.yaml', '.config'];

/**
 * True when cosmiconfig's search from `cwd` (SEARCH_OPTIONS) is sure to find nothing: no file of
 * SEARCH_PLACES (nor a package.yaml, which also ends the search) in `cwd` or any directory above
 * it, and no meta config where cosmiconfig looks for one. Checks at least every path the search
 * would, so a false answer only means "ask cosmiconfig": loading cosmiconfig and js-yaml is a
 * good part of a pod's start-up, and most projects of a pod without a config have none.
 * Anything but a plain "no such file" (a denied directory, a file where a directory should be)
 * answers false too.
 */
export function surelyNoConfigFile(cwd: string): boolean {
  try {
    for (const place of META_PLACES) if (exists(path.join(process.cwd(), place))) return false;
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
