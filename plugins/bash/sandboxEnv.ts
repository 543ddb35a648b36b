import os from 'node:os';

/** Where commands are looked up when the pod has no PATH of its own. */
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The environment a command runs with: a small clean set built from scratch, so nothing the pod
 * holds (API keys, tokens, `YOI_*` settings) reaches it. PATH and the locale come from the pod
 * (commands must find the user's tools); the terminal is `dumb` (no pager, no colours: there is
 * no terminal) and temporary files go to the private `/tmp`.
 */
export function sandboxEnv(from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const user = safeUserInfo();
  const env: Record<string, string> = {
    PATH: from.PATH || DEFAULT_PATH,
    HOME: user?.homedir || os.homedir(),
    LANG: from.LANG || 'C.UTF-8',
    TERM: 'dumb',
    TMPDIR: '/tmp',
    SHELL: '/bin/bash',
  };
  if (user?.username) {
    env.USER = user.username;
    env.LOGNAME = user.username;
  }
  for (const name of ['LC_ALL', 'LC_CTYPE', 'TZ'] as const) {
    const value = from[name];
    if (value) env[name] = value;
  }
  return env;
}

function safeUserInfo(): os.UserInfo<string> | undefined {
  try {
    return os.userInfo();
  } catch {
    return undefined; // a uid with no passwd entry
  }
}
