import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a config is looked for in each directory, from the cwd upward, first match wins.
 * cosmiconfig's defaults lack `yoi.config.json`; `.config/` subfolders are not searched.
 */
export const SEARCH_PLACES: readonly string[] = Object.freeze([
  'yoi.config.ts',
  'yoi.config.js',
  'yoi.config.mjs',
  'yoi.config.cjs',
  'yoi.config.json',
  '.yoirc',
  '.yoirc.json',
  '.yoirc.yaml',
  '.yoirc.yml',
  '.yoirc.js',
  '.yoirc.mjs',
  '.yoirc.cjs',
  '.yoirc.ts',
  'package.json',
]);

/** How cosmiconfig searches (shared by loading a config and finding one without running it). */
export const SEARCH_OPTIONS = Object.freeze({
  searchPlaces: [...SEARCH_PLACES],
  searchStrategy: 'project',
  ignoreEmptySearchPlaces: false,
  cache: false,
} as const);

/** Files whose presence ends the search in their directory (cosmiconfig's `project` strategy). */
export const PACKAGE_FILES: readonly string[] = Object.freeze(['package.json', 'package.yaml']);

/**
 * The directories a search from `cwd` looks in, in order: upward until the directory of the
 * config it found (`configPath`), or one holding a package file, or the root.
 */
export function searchDirs(cwd: string, configPath: string | null): string[] {
  const end = configPath === null ? undefined : path.dirname(configPath);
  const out: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    out.push(dir);
    if (dir === end || path.dirname(dir) === dir) return out;
    if (PACKAGE_FILES.some((f) => fs.existsSync(path.join(dir, f)))) return out;
  }
}
