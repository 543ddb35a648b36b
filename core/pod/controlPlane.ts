import path from 'node:path';
import type { ResolvedConfig } from '../config/resolveConfig.js';
import { SEARCH_PLACES } from '../config/searchPlaces.js';
import { userCacheDir, userConfigDir } from '../config/userDirs.js';
import type { ProtectedPathInput } from '../scope/ProtectedPath.js';
import { isWithin } from '../scope/ruleMatches.js';
import type { PodPaths } from './runtimePaths.js';

/**
 * The pod's control plane, which its tools never write whatever the scope says (a model that
 * edits the config makes the children it spawns run that code):
 * - the config files it loaded (the config and its local modules; `package.json` is the
 *   project's own file: only its `yoi` key counts, and config trust covers it) and the places
 *   a config would be found next in the project directory and the working directory;
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
  for (const file of loaded) if (path.basename(file) !== 'package.json') out.push({ path: file, what: 'its config' });
  for (const dir of new Set([config.projectDir, config.cwd])) {
    for (const place of SEARCH_PLACES)
      if (place !== 'package.json') out.push({ path: path.join(dir, place), what: 'its config' });
  }
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
