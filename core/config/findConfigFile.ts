import path from 'node:path';
import { surelyNoConfigFile } from './noConfigFile.js';
import { configExplorer } from './configExplorer.js';

export interface FindConfigOptions {
  readonly cwd: string;
  /** `--config FILE` (wins over `YOI_CONFIG`). */
  readonly configFile?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The config file loadConfig would load, found without running any of it: `--config`, else
 * `YOI_CONFIG`, else cosmiconfig's search with loaders that only parse data (a JS/TS file is
 * taken as found, not evaluated). Null when there is none. A file that fails to parse is
 * still the one found (loading it reports the error).
 */
export async function findConfigFile({
  cwd,
  configFile,
  env = process.env,
}: FindConfigOptions): Promise<string | null> {
  const explicit = configFile ?? env.YOI_CONFIG;
  if (explicit) return path.resolve(cwd, explicit);
  if (surelyNoConfigFile(cwd)) return null;
  const found = () => ({});
  const explorer = await configExplorer({
    '.ts': found,
    '.js': found,
    '.mjs': found,
    '.cjs': found,
    '.json': (_file: string, text: string) => JSON.parse(text),
  });
  try {
    return (await explorer.search(cwd))?.filepath ?? null;
  } catch (error) {
    const filepath = (error as { filepath?: unknown }).filepath;
    if (typeof filepath === 'string') return filepath;
    throw error;
  }
}
