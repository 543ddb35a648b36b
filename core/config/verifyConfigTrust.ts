import fs from 'node:fs';
import path from 'node:path';
import { YoiError } from '../errors/YoiError.js';
import { NO_CONFIG_DIGEST, configSources, type ConfigSources } from './configSources.js';
import { findConfigFile } from './findConfigFile.js';
import { TrustStore } from './TrustStore.js';

export interface VerifyConfigOptions {
  readonly cwd: string;
  /** `--config FILE` of the child (its spawner's config file). */
  readonly configFile?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** `--config-digest`: the digest of the config its spawner loaded. */
  readonly expected: string;
}

/**
 * Run by a pod SpawnPod started, before its config is loaded (a JS/TS config runs code as it
 * loads): the config it would load must be the content its spawner loaded, or content the user
 * trusted with `yoi trust`. A config that changed since (or appeared where the spawner had
 * none) is refused with one line naming `yoi trust`. Returns the digest that was accepted.
 */
export async function verifyConfigTrust({
  cwd,
  configFile,
  env = process.env,
  expected,
}: VerifyConfigOptions): Promise<ConfigSources> {
  const configPath = await findConfigFile({ cwd, configFile, env });
  // A missing --config file is loadConfig's to report (it runs nothing).
  if (configPath !== null && !fs.existsSync(configPath)) return { files: [], digest: expected, shadows: [] };
  const sources = await configSources(configPath);
  if (sources.digest === expected) return sources;
  if (configPath !== null && new TrustStore(env).isTrusted(configPath, sources.digest)) return sources;
  if (configPath === null) {
    throw new YoiError(
      'YOI_ERR_CONFIG_UNTRUSTED',
      `no config is found from ${cwd}, but the spawning pod loaded one: start it with --config`,
    );
  }
  const dir = path.dirname(configPath);
  const what =
    expected === NO_CONFIG_DIGEST
      ? `config ${configPath} appeared since the spawning pod started without one`
      : `config ${configPath} changed since the spawning pod loaded it`;
  throw new YoiError(
    'YOI_ERR_CONFIG_UNTRUSTED',
    `${what}; a spawned pod loads a changed config only once you trust it: run \`yoi trust\` in ${dir}`,
  );
}
