import { stat } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { YoiError } from '../errors/YoiError.js';
import { formatZodError } from '../errors/formatZodError.js';
import type { YoiPlugin } from '../plugin/YoiPlugin.js';
import { describeLoadError } from './describeLoadError.js';
import { failOnUnhandledRejection } from './failOnUnhandledRejection.js';
import { resolveConfig, type ResolvedConfig } from './resolveConfig.js';
import { configExplorer } from './configExplorer.js';
import { configSources } from './configSources.js';
import { surelyNoConfigFile } from './noConfigFile.js';
import { requireNestedConfigTrust } from './requireNestedConfigTrust.js';
import { userCacheDir } from './userDirs.js';
import { ensureOwnDir } from '../pod/trustedPath.js';
import { isWithin } from '../scope/ruleMatches.js';
import { YoiConfigSchema, type ParsedConfig } from './YoiConfigSchema.js';
import { parseSections, schemaWithSections } from './pluginSections.js';

export interface LoadConfigOptions {
  /** Where the search starts; also the pod's working directory. */
  readonly cwd: string;
  /** `--config FILE`: load this file instead of searching (relative to `cwd`). */
  readonly configFile?: string;
  /** Read for `YOI_CONFIG` (same as `--config`, which wins). Default: `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Plugins used when the config lists none. Core cannot import them: callers pass `defaultPlugins()`. */
  readonly defaultPlugins?: readonly YoiPlugin[];
  /**
   * Modules a JS/TS config gets for `import ... from 'yoi'` (and `'yoi/plugins'`), so a config
   * runs against the yoi that loads it even where yoi is not installed locally.
   */
  readonly virtualModules?: () => Promise<Record<string, unknown>>;
}

/**
 * Finds, loads and validates the config: `--config`/`YOI_CONFIG`, else the first of
 * SEARCH_PLACES from `cwd` upward (stopping at the first directory with a package.json), else
 * all defaults. Throws a one-line YoiError naming the file and the key on any problem.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<ResolvedConfig> {
  const { cwd, env = process.env } = options;
  const loaded: string[] = [];
  const explorer = () =>
    configExplorer(configLoaders(options.virtualModules, jitiCacheDir(env), (files) => loaded.push(...files)));

  const explicit = options.configFile
    ? { file: options.configFile, from: '--config' }
    : env.YOI_CONFIG
      ? { file: env.YOI_CONFIG, from: 'YOI_CONFIG' }
      : undefined;
  let found: { filepath: string; config: unknown } | null;
  let filepath: string | undefined;
  try {
    if (!explicit && surelyNoConfigFile(cwd)) {
      found = null;
    } else if (explicit) {
      filepath = path.resolve(cwd, explicit.file);
      const info = await stat(filepath).catch(() => undefined);
      if (!info?.isFile()) {
        throw new YoiError(
          'YOI_ERR_CONFIG_NOT_FOUND',
          `config file not found: ${explicit.file} (from ${explicit.from})`,
        );
      }
      const file = filepath;
      found = await failOnUnhandledRejection(async () => (await explorer()).load(file), leftUnhandled);
      if (!found) throw new YoiError('YOI_ERR_CONFIG', `${labelOf(cwd, filepath)}: has no "yoi" key`);
    } else {
      await requireNestedConfigTrust(cwd, env);
      found = await failOnUnhandledRejection(async () => (await explorer()).search(cwd), leftUnhandled);
    }
  } catch (error) {
    // Our own errors are complete; errors from loading a file carry cosmiconfig's `filepath`.
    if (error instanceof YoiError && !('filepath' in error)) throw error;
    const failed = (error as { filepath?: string }).filepath ?? filepath ?? cwd;
    throw describeLoadError(error, labelOf(cwd, failed), failed);
  }

  const configPath = found?.filepath ?? null;
  const isPackageJson = configPath !== null && path.basename(configPath) === 'package.json';
  const label = configPath ? labelOf(cwd, configPath) : 'config';
  const prefix = isPackageJson ? ['yoi'] : [];
  // An empty file is a config with nothing set.
  const raw = found?.config ?? {};
  // The plugin list decides which keys exist besides yoi's own: each plugin owns its section.
  const listed = YoiConfigSchema.shape.plugins.safeParse((raw as { plugins?: unknown } | null)?.plugins);
  const candidates = (listed.success ? listed.data : undefined) ?? options.defaultPlugins ?? [];
  const where = `${label}: `;
  const { schema, claims } = schemaWithSections(candidates, where);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new YoiError('YOI_ERR_CONFIG', `${where}${formatZodError(parsed.error, schema, prefix)}`);
  }
  const sections = parseSections(raw, claims, where, prefix);
  const resolved = resolveConfig(parsed.data as ParsedConfig, {
    cwd,
    configPath,
    defaultPlugins: options.defaultPlugins ?? [],
    where: `${where}${prefix.map((p) => `${p}.`).join('')}`,
    sections,
  });
  const sources = await configSources(configPath).catch((error: unknown) => {
    throw describeLoadError(error, label, configPath ?? cwd);
  });
  const files = [...new Set([...sources.files.map((f) => f.path), ...loaded, ...sources.shadows])].slice(
    0,
    MAX_LOADED_FILES,
  );
  return { ...resolved, configFiles: files, configDigest: sources.digest };
}

/** A config (or a module it imports) that rejected a promise nobody handles: the load fails, naming the file. */
function leftUnhandled(reason: unknown, found: { filepath: string } | null): Error {
  const message =
    typeof (reason as Error | null)?.message === 'string' ? (reason as Error).message : safeString(reason);
  return Object.assign(
    new Error(`a promise rejection was left unhandled: ${message}`),
    found ? { filepath: found.filepath } : {},
  );
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return 'a value that cannot be printed';
  }
}

/** Files of a config's module graph kept for the control plane (a bound on a huge graph). */
const MAX_LOADED_FILES = 1000;

/**
 * jiti's compiled-file cache, in the user's own cache directory. jiti's default is
 * `<tmpdir>/jiti`, which any local user can create first and fill with compiled code that
 * every later config load would run. Without a directory of the user's, no file cache.
 */
function jitiCacheDir(env: NodeJS.ProcessEnv): string | false {
  const dir = path.join(userCacheDir(env), 'jiti');
  try {
    ensureOwnDir(path.dirname(dir), {
      what: 'cache directory',
      fix: 'remove it, or set XDG_CACHE_HOME to a directory you own',
    });
    ensureOwnDir(dir, { what: 'cache directory', fix: 'remove it, or set XDG_CACHE_HOME to a directory you own' });
    return dir;
  } catch {
    return false;
  }
}

/** How a config file is named in messages: relative to the cwd. */
export function labelOf(cwd: string, filepath: string): string {
  return path.relative(cwd, filepath) || path.basename(filepath);
}

type Loader = (filepath: string, contents: string) => Promise<unknown> | unknown;

/**
 * JS and TS configs go through jiti (fast, no `typescript` at run time, relative `.ts` imports
 * work, one resolution rule for every extension); JSON gets a loader whose errors carry a
 * location. YAML and `.yoirc` keep cosmiconfig's YAML loader.
 */
function configLoaders(
  virtualModules: LoadConfigOptions['virtualModules'],
  fsCache: string | false,
  onLoaded: (files: string[]) => void,
): Record<string, Loader> {
  const loadModule: Loader = async (filepath) => {
    const { createJiti } = await import('jiti');
    // jiti's module cache (Node's require cache) is how jiti tells which files it loaded, the
    // ones from its file cache too; they leave it right after, so a config edited between two
    // loads in one process is read again.
    // No interop: jiti's own unwrapping throws on `export default null` and turns `undefined`
    // into a `{ default }` object; the namespace is read as it is instead.
    const jiti = createJiti(import.meta.url, {
      fsCache,
      moduleCache: true,
      interopDefault: false,
      virtualModules: await virtualModules?.(),
    });
    const before = new Set(Object.keys(jiti.cache));
    let mod: Record<string, unknown>;
    try {
      mod = await jiti.import<Record<string, unknown>>(filepath);
    } finally {
      // jiti's own files (its babel, loaded on the first transform) stay cached and unlisted.
      const own = path.dirname(path.dirname(createRequire(import.meta.url).resolve('jiti')));
      const added = Object.keys(jiti.cache).filter((k) => !before.has(k) && !isWithin(k, own));
      for (const key of added) delete jiti.cache[key];
      onLoaded(added.filter((k) => path.isAbsolute(k)));
    }
    if (mod === null || typeof mod !== 'object' || !('default' in mod)) {
      throw new Error('the file has no default export: write `export default { ... }`');
    }
    return configValue(esModuleDefault(mod.default));
  };
  const loadJson: Loader = (_filepath, contents) => {
    let value: unknown;
    try {
      value = JSON.parse(contents);
    } catch (error) {
      throw Object.assign(error as Error, { source: contents });
    }
    // cosmiconfig would take `null` for "no config here" and search on, up to a parent's.
    if (value === null) throw notAnObject(value);
    return value;
  };
  return { '.ts': loadModule, '.js': loadModule, '.mjs': loadModule, '.cjs': loadModule, '.json': loadJson };
}

/** How long a config's default export may take to settle when it is a promise. */
export const CONFIG_SETTLE_MS = 10_000;

/** CommonJS compiled from an ES module (`exports.default`, `__esModule`) holds the config one level down. */
function esModuleDefault(value: unknown): unknown {
  const mod = value as { __esModule?: unknown; default?: unknown } | null;
  return mod !== null && typeof mod === 'object' && mod.__esModule === true && 'default' in mod ? mod.default : value;
}

/**
 * The config a default export gives: awaited when it is a promise, within CONFIG_SETTLE_MS (a
 * promise that never settles would let the process run out of work and exit 0, saying nothing).
 */
async function configValue(value: unknown): Promise<unknown> {
  if (typeof (value as PromiseLike<unknown> | null)?.then === 'function') {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new YoiError(
              'YOI_ERR_CONFIG',
              `its default export is a promise that did not settle within ${CONFIG_SETTLE_MS / 1000} s`,
            ),
          ),
        CONFIG_SETTLE_MS,
      );
    });
    try {
      value = await Promise.race([value, late]);
    } finally {
      clearTimeout(timer);
    }
  }
  if (value === null || value === undefined) throw notAnObject(value);
  return value;
}

function notAnObject(value: unknown): YoiError {
  return new YoiError(
    'YOI_ERR_CONFIG',
    `expected an object, not ${String(value)} (an empty object \`{}\` gives all defaults)`,
  );
}
