import os from 'node:os';
import path from 'node:path';

/** An XDG base directory: the variable when it holds an absolute path (the spec ignores others), else `~/<fallback>`. */
function xdg(env: NodeJS.ProcessEnv, variable: string, fallback: string): string {
  const value = env[variable];
  if (value && path.isAbsolute(value)) return value;
  return path.join(env.HOME || os.homedir(), fallback);
}

/** `$XDG_CONFIG_HOME/yoi`, else `~/.config/yoi`: the user's yoi settings (the trust store). */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(xdg(env, 'XDG_CONFIG_HOME', '.config'), 'yoi');
}

/** `$XDG_CACHE_HOME/yoi`, else `~/.cache/yoi`: compiled config files. */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(xdg(env, 'XDG_CACHE_HOME', '.cache'), 'yoi');
}
