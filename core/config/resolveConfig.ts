import { homedir } from 'node:os';
import path from 'node:path';
import type { ModelConfig } from '../hooks/createHooks.js';
import { YoiError } from '../errors/YoiError.js';
import type { YoiPlugin } from '../plugin/YoiPlugin.js';
import { DEFAULT_DIRS, type ParsedConfig, type ScopeRule } from './YoiConfigSchema.js';

/** The provider used when the config names none. */
export const DEFAULT_MODEL: ModelConfig = Object.freeze({ provider: 'echo' });

/** A scope rule with its target resolved to an absolute path. */
export type ResolvedScopeRule = ScopeRule & {
  readonly recursive: boolean;
  /** `target`, absolute. */ readonly path: string;
};

/** Everything a pod needs from its config: defaults applied, paths absolute, plugins final. */
export type ResolvedConfig = Omit<ParsedConfig, 'model' | 'plugins' | 'disablePlugins' | 'scope' | 'sessions'> & {
  /** The directory the config was looked up from (the pod's working directory). */
  readonly cwd: string;
  /** Absolute path of the config file, or null when none was found (all defaults). */
  readonly configPath: string | null;
  /** Directory of the config file, or `cwd` without one: the root of `.yoi/`. */
  readonly projectDir: string;
  readonly model: ModelConfig;
  /** True when the config names no model and the offline `echo` provider stands in. */
  readonly modelIsDefault: boolean;
  /** The plugins to apply, in order, after `disablePlugins`. */
  readonly plugins: readonly YoiPlugin[];
  readonly disablePlugins: readonly string[];
  readonly scope: { readonly allow: readonly ResolvedScopeRule[]; readonly deny: readonly ResolvedScopeRule[] };
  readonly sessions: { readonly dir: string };
  /** Each plugin's parsed config section, by plugin name (what its `api.config` is). */
  readonly sections: ReadonlyMap<string, unknown>;
  /**
   * The files the config consists of (set by loadConfig): its static import graph, every file
   * jiti loaded, and the paths that would take the place of one of its imports if created
   * (`ConfigSources.shadows`). The pod's tools cannot write them (its control plane).
   */
  readonly configFiles?: readonly string[];
  /** SHA-256 of the config's content (configSources.ts): children refuse a changed config. */
  readonly configDigest?: string;
};

export interface ResolveInput {
  readonly cwd: string;
  readonly configPath: string | null;
  /** Plugins used when the config lists none (the caller passes `defaultPlugins()`). */
  readonly defaultPlugins: readonly YoiPlugin[];
  /** Prefix for error messages: `yoi.config.ts: `. */
  readonly where: string;
  /** The plugins' config sections (see `parseSections`); none when omitted. */
  readonly sections?: ReadonlyMap<string, unknown>;
}

/** Turns a parsed config into a ResolvedConfig: defaults, absolute paths, the final plugin list. */
export function resolveConfig(
  parsed: ParsedConfig,
  { cwd, configPath, defaultPlugins, where, sections = new Map() }: ResolveInput,
): ResolvedConfig {
  const projectDir = configPath ? path.dirname(configPath) : cwd;
  const { model, plugins: listed, disablePlugins = [], scope, sessions, ...rest } = parsed;
  const candidates = listed ?? defaultPlugins;

  disablePlugins.forEach((name, i) => {
    if (!candidates.some((p) => p.name === name)) {
      const known = candidates.map((p) => p.name).join(', ') || 'none';
      throw new YoiError(
        'YOI_ERR_CONFIG',
        `${where}disablePlugins[${i}]: no plugin named "${name}" (plugins: ${known})`,
      );
    }
  });

  const rule = (r: ScopeRule): ResolvedScopeRule => ({
    ...r,
    recursive: r.recursive ?? true,
    path: absolute(projectDir, r.target),
  });
  return {
    ...rest,
    cwd,
    configPath,
    projectDir,
    model: model ?? DEFAULT_MODEL,
    modelIsDefault: model === undefined,
    plugins: candidates.filter((p) => !disablePlugins.includes(p.name)),
    disablePlugins,
    scope: { allow: scope.allow.map(rule), deny: scope.deny.map(rule) },
    sessions: { dir: absolute(projectDir, sessions.dir ?? DEFAULT_DIRS.sessions) },
    sections,
  };
}

/** `~/x` is under the home directory; other relative paths are under `base`. */
export function absolute(base: string, target: string): string {
  if (target === '~' || target.startsWith('~/')) return path.join(homedir(), target.slice(1));
  return path.resolve(base, target);
}
