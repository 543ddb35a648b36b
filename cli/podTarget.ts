import type { PodClient } from '../client/PodClient.js';

export interface PodTargetFlags {
  pod?: string;
  socket?: string;
  config?: string;
  url?: string;
  'token-env'?: string;
}

export interface PodTarget {
  name: string;
  /** The socket path, or for `--url` the URL. */
  socket: string;
  /** How to address this pod on a command line: `--pod alpha`, `--socket PATH` or `--url URL`. */
  flag: string;
  /** A pod's network listener (`--url`) and the bearer token for it. */
  url?: string;
  token?: string;
}

/**
 * Which pod a command talks to: `--socket`, else `--pod`, else the config's `name`. A socket
 * that is not the user's own (or lies where another user could swap it) is refused here, so
 * the command says so instead of "not running".
 */
export async function resolvePodTarget(flags: PodTargetFlags): Promise<PodTarget> {
  if (flags.url !== undefined) return urlTarget(flags.url, flags['token-env']);
  const target = await findPodTarget(flags);
  const { checkOwnSocket } = await import('../core/pod/trustedPath.js');
  checkOwnSocket(target.socket);
  return target;
}

/** `--url`: the token comes from `--token-env VAR`, else `YOI_TOKEN`. */
async function urlTarget(url: string, tokenEnv: string | undefined): Promise<PodTarget> {
  const { YoiError } = await import('../core/errors/YoiError.js');
  const variable = tokenEnv ?? 'YOI_TOKEN';
  const token = process.env[variable]?.trim();
  if (!token) {
    const how = tokenEnv ? '' : ', or name the variable holding it with --token-env VAR';
    throw new YoiError(
      'YOI_ERR_TOKEN',
      `no usable token for ${url}: $${variable} is not set (the pod's token is in <runtime dir>/<name>/token on its machine${how})`,
    );
  }
  const flag = tokenEnv ? `--url ${url} --token-env ${tokenEnv}` : `--url ${url}`;
  return { name: url, socket: url, flag, url, token };
}

async function findPodTarget(flags: PodTargetFlags): Promise<PodTarget> {
  const { podPaths, validatePodName } = await import('../core/pod/runtimePaths.js');
  const { YoiError } = await import('../core/errors/YoiError.js');
  if (flags.socket) return { name: flags.socket, socket: flags.socket, flag: `--socket ${flags.socket}` };
  let name = flags.pod;
  if (!name) {
    // The name is all a pod's client needs of the config: its plugins are not applied.
    const { loadProjectConfig } = await import('./loadProject.js');
    name = (await loadProjectConfig({ configFile: flags.config })).name;
  }
  const bad = validatePodName(name);
  if (bad) throw new YoiError('YOI_ERR_POD_NAME', bad);
  return { name, socket: podPaths(name).socket, flag: `--pod ${name}` };
}

/**
 * Connects with protocol v2 (v1 for a v1 pod); a pod that is not running gives one clear line
 * saying how to start it.
 */
export async function connectPod(
  flags: PodTargetFlags,
): Promise<{ client: PodClient; name: string; target: PodTarget }> {
  const target = await resolvePodTarget(flags);
  const { PodClient } = await import('../client/PodClient.js');
  if (target.url !== undefined) {
    const client = await PodClient.connect({
      url: target.url,
      token: target.token,
      clientName: 'yoi-cli',
      protocol: 2,
    });
    const named = { ...target, name: client.welcome?.pod_name ?? target.name };
    return { client, name: named.name, target: named };
  }
  const { isSocketLive } = await import('../core/pod/podFiles.js');
  if (!(await isSocketLive(target.socket))) throw await notRunning(target);
  const client = await PodClient.connect({ socketPath: target.socket, clientName: 'yoi-cli', protocol: 2 });
  return { client, name: target.name, target };
}

/** No pod listens on the target's socket: say so, and how to start one there. */
export async function notRunning(target: PodTarget): Promise<Error> {
  const { YoiError } = await import('../core/errors/YoiError.js');
  const start = target.flag.startsWith('--socket')
    ? `yoi pod start ${target.flag} --detach`
    : `yoi pod start --name ${target.name} --detach`;
  return new YoiError(
    'YOI_ERR_POD_NOT_FOUND',
    `pod ${target.name} is not running (no pod listens on ${target.socket}); start it with: ${start}`,
  );
}
