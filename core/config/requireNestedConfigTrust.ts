import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { YoiError } from '../errors/YoiError.js';
import { configSources } from './configSources.js';
import { findConfigFile } from './findConfigFile.js';
import { TrustStore } from './TrustStore.js';
import { isWithin } from '../scope/ruleMatches.js';

/**
 * The nearest yoi project (a directory holding `.yoi/`) strictly above `dir`, below the home
 * directory; undefined when there is none. A pod of that project may write below it (its scope
 * usually is the project), so a config found deeper down may be the model's, not the user's.
 */
export function enclosingProject(dir: string, home: string): string | undefined {
  for (let d = path.dirname(dir); d !== path.dirname(d); d = path.dirname(d)) {
    if (isWithin(home, d)) break; // home itself or above it (`dir` may be home)
    if (isDirectory(path.join(d, '.yoi'))) return d;
  }
  return undefined;
}

/**
 * Before a search runs the config it finds: a config inside another yoi project (the search
 * from a subdirectory found `src/yoi.config.ts`, which that project's pod could have written)
 * is loaded only once the user trusted its content with `yoi trust`. The project's own config
 * (next to its `.yoi/`) and a file given with `--config` are the user's choice and need no trust.
 * Costs one `lstat` per directory above `cwd` when none holds a `.yoi/`.
 */
export async function requireNestedConfigTrust(cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const home = env.HOME ?? os.homedir();
  // The config is in cwd or above: no project above cwd, none above the config.
  if (enclosingProject(cwd, home) === undefined) return;
  const configPath = await findConfigFile({ cwd, env });
  if (configPath === null) return;
  const dir = path.dirname(configPath);
  const project = enclosingProject(dir, home);
  if (project === undefined) return;
  const { digest } = await configSources(configPath);
  if (new TrustStore(env).isTrusted(configPath, digest)) return;
  throw new YoiError(
    'YOI_ERR_CONFIG_UNTRUSTED',
    `config ${configPath} is inside the yoi project ${project}, whose pods can write it: ` +
      `check it, then run \`yoi trust\` in ${dir} to load it`,
  );
}

function isDirectory(p: string): boolean {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false; // a directory we may not look into holds no project of ours
  }
}
