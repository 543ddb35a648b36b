import { startupDone } from './hot/startupDone.js';

export interface ForegroundPodOptions {
  /** `--config FILE`. */
  config?: string;
  name?: string;
  socket?: string;
  resume?: string | true;
  /**
   * Started by SpawnPod: the pod tree's launch parameters (`launch.adopt`); `configDigest`: the
   * config must be what the parent loaded, or trusted.
   */
  adopt?: { callback: string; instruction?: string; secret?: string; configDigest?: string };
  /** `--mcp-servers`: MCP servers for this pod only, handed to plugins as `launch.mcp.servers`. */
  mcpServers?: Record<string, unknown>;
  /** `--listen`, `--tls-cert/--tls-key`, `--token-env`: the network listeners' launch parameters (`launch.listen`, plugin yoi:ws). */
  listen?: { urls: string[]; tlsCert?: string; tlsKey?: string; tokenEnv?: string };
}

/**
 * Runs a pod in this process until it stops (what `yoi pod start` does without --detach):
 * prints `listening <socket>` once it accepts connections, its startup notes on stderr, and
 * stops it cleanly on SIGINT/SIGTERM.
 */
export async function runPodForeground(opts: ForegroundPodOptions, print: (line: string) => void): Promise<void> {
  const [{ loadProject }, { Pod }] = await Promise.all([import('./loadProject.js'), import('../core/pod/Pod.js')]);
  const expected = opts.adopt?.configDigest;
  // Before the config is loaded: loading a JS/TS config runs it.
  const accepted = expected === undefined ? undefined : await verifyConfig(opts.config, expected);
  const { config, host } = await loadProject({ configFile: opts.config });
  if (accepted !== undefined && config.configDigest !== accepted) {
    const { YoiError } = await import('../core/errors/YoiError.js');
    throw new YoiError(
      'YOI_ERR_CONFIG_UNTRUSTED',
      `config ${config.configPath ?? ''} changed while the pod was starting; start it again`,
    );
  }
  const launch = {
    ...(opts.adopt ? { adopt: opts.adopt } : {}),
    ...(opts.mcpServers ? { mcp: { servers: opts.mcpServers } } : {}),
    ...(opts.listen ? { listen: opts.listen } : {}),
  };
  const pod = await Pod.start({
    config,
    host,
    name: opts.name,
    socketPath: opts.socket,
    resume: opts.resume,
    ...(Object.keys(launch).length > 0 ? { launch } : {}),
  });
  print(`listening ${pod.paths.socket}`);
  for (const note of pod.notes) process.stderr.write(`yoi: ${note}\n`);
  startupDone();
  const stop = () => void pod.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await pod.closed;
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
}

/** A spawned pod's config check (core/config/verifyConfigTrust.ts); the digest it accepted. */
async function verifyConfig(configFile: string | undefined, expected: string): Promise<string> {
  const { verifyConfigTrust } = await import('../core/config/verifyConfigTrust.js');
  return (await verifyConfigTrust({ cwd: process.cwd(), configFile, expected })).digest;
}
