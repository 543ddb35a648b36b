import type { PodClient } from '../core/client/PodClient.js';

export interface PodTargetFlags {
  pod?: string;
  socket?: string;
  config?: string;
}

/**
 * Which pod a command talks to: `--socket`, else `--pod`, else the config's `name`. A socket
 * that is not the user's own (or lies where another user could swap it) is refused here, so
 * the command says so instead of "not running".
 */
export async function resolvePodTarget(flags: PodTargetFlags): Promise<{ name: string; socket: string }> {
  const target = await findPodTarget(flags);
  const { checkOwnSocket } = await import('../core/pod/trustedPath.js');
  checkOwnSocket(target.socket);
  return target;
}

async function findPodTarget(flags: PodTargetFlags): Promise<{ name: string; socket: string }> {
  const { podPaths, validatePodName } = await import('../core/pod/runtimePaths.js');
  const { YoiError } = await import('../core/errors/YoiError.js');
  if (flags.socket) return { name: flags.socket, socket: flags.socket };
  let name = flags.pod;
  if (!name) {
    const { loadProject } = await import('./loadProject.js');
    const { config } = await loadProject({ configFile: flags.config, checkProvider: false });
    name = config.name;
  }
  const bad = validatePodName(name);
  if (bad) throw new YoiError('YOI_ERR_POD_NAME', bad);
  return { name, socket: podPaths(name).socket };
}

/** Connects with protocol v2; a pod that is not running gives one clear line. */
export async function connectPod(flags: PodTargetFlags): Promise<{ client: PodClient; name: string }> {
  const target = await resolvePodTarget(flags);
  const { PodClient } = await import('../core/client/PodClient.js');
  const { YoiError } = await import('../core/errors/YoiError.js');
  const { isSocketLive } = await import('../core/pod/podFiles.js');
  if (!(await isSocketLive(target.socket))) {
    throw new YoiError('YOI_ERR_POD_NOT_FOUND', `pod ${target.name} is not running (no pod listens on ${target.socket})`);
  }
  const client = await PodClient.connect({ socketPath: target.socket, clientName: 'yoi-cli', protocol: 2 });
  return { client, name: target.name };
}
