export interface ForegroundPodOptions {
  /** `--config FILE`. */
  config?: string;
  name?: string;
  socket?: string;
  resume?: string | true;
  /** Started by SpawnPod: the pod tree's launch parameters (`launch.adopt`). */
  adopt?: { callback: string; instruction?: string; secret?: string };
  /** `--mcp-servers`: MCP servers for this pod only, handed to plugins as `launch.mcp.servers`. */
  mcpServers?: Record<string, unknown>;
}

/**
 * Runs a pod in this process until it stops (what `yoi pod start` does without --detach):
 * prints `listening <socket>` once it accepts connections, its startup notes on stderr, and
 * stops it cleanly on SIGINT/SIGTERM.
 */
export async function runPodForeground(opts: ForegroundPodOptions, print: (line: string) => void): Promise<void> {
  const [{ loadProject }, { Pod }] = await Promise.all([import('./loadProject.js'), import('../core/pod/Pod.js')]);
  const { config, host } = await loadProject({ configFile: opts.config });
  const launch = { ...(opts.adopt ? { adopt: opts.adopt } : {}), ...(opts.mcpServers ? { mcp: { servers: opts.mcpServers } } : {}) };
  const pod = await Pod.start({ config, host, name: opts.name, socketPath: opts.socket, resume: opts.resume,
    ...(Object.keys(launch).length > 0 ? { launch } : {}),
  });
  print(`listening ${pod.paths.socket}`);
  for (const note of pod.notes) process.stderr.write(`yoi: ${note}\n`);
  const stop = () => void pod.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await pod.closed;
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
}
