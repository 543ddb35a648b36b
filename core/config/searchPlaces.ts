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
