import path from 'node:path';
import type { ResolvedConfig } from '../config/resolveConfig.js';
import { PACKAGE_FILES, SEARCH_PLACES, searchDirs } from '../config/searchPlaces.js';
import { userCacheDir, userConfigDir } from '../config/userDirs.js';
import type { ProtectedPathInput } from '../scope/ProtectedPath.js';
import { isWithin } from '../scope/ruleMatches.js';
import type { PodPaths } from './runtimePaths.js';

/**
 * The pod's control plane, which its tools never write whatever the scope says (a model that
 * edits the config makes the children it spawns run that code):
 * - the config files it loaded (the config, a package.json holding it included, its local
 *   modules and the paths that would take an import's place), and every place a config would be
 *   found next: in the project directory and each directory the search passes from the working
 *   directory (a new package file in one of those but the last would end the search there);
 * - its state under `<project>/.yoi/` (sessions, permissions, anything yoi keeps there) except
 *   the knowledge and workflow folders, the user's data, which stay as the scope says; the
 *   sessions directory wherever it is configured;
 * - its runtime directory (scope.lock, sockets, pod directories) and a socket given elsewhere;
 * - the user's yoi settings (the trust store) and yoi's cache (compiled config files).
 */
export function controlPlanePaths({
  config,
  paths,
  env,
}: {
  config: ResolvedConfig;
  paths: PodPaths;
  env: NodeJS.ProcessEnv;
}): ProtectedPathInput[] {
  const out: ProtectedPathInput[] = [];
  const loaded = config.configFiles ?? (config.configPath ? [config.configPath] : []);
  for (const file of loaded) out.push({ path: file, what: 'its config' });
  const dirs = searchDirs(config.cwd, config.configPath);
  for (const dir of new Set([config.projectDir, ...dirs])) {
    for (const place of SEARCH_PLACES)
      if (place !== 'package.json') out.push({ path: path.join(dir, place), what: 'its config' });
  }
  // A package file where the search went on would end it there: with a `yoi` key it would be the
  // next config, without one it would hide this one.
  for (const dir of dirs.slice(0, -1))
    for (const file of PACKAGE_FILES) out.push({ path: path.join(dir, file), what: 'its config' });
  // A `yoi` key put in the package.json where the search ends would be the next config (where
  // the search found none: no config, or one given with --config). The rest of the file is the project's.
  const last = path.join(dirs[dirs.length - 1], 'package.json');
  if (last !== config.configPath) out.push({ path: last, what: 'its config', key: 'yoi' });
  const state = path.join(config.projectDir, '.yoi');
  // The default knowledge and workflow folders are the user's data; plugins name others (Scope.addUserData).
  out.push({ path: state, what: 'its state', except: [path.join(state, 'knowledge'), path.join(state, 'workflows')] });
  if (!isWithin(config.sessions.dir, state)) out.push({ path: config.sessions.dir, what: 'its session logs' });
  out.push({ path: paths.base, what: 'its runtime directory' });
  if (!isWithin(paths.socket, paths.base)) out.push({ path: paths.socket, what: 'its socket' });
  out.push(
    { path: userConfigDir(env), what: "the user's yoi settings" },
    { path: userCacheDir(env), what: "yoi's cache" },
  );
  return out;
}
