import { Flags } from '@oclif/core';
import { YoiCommand } from '../YoiCommand.js';
import { configFlags } from '../flags.js';

export default class Host extends YoiCommand {
  static override summary =
    'Serve this machine to the cluster: place pods here for SpawnPod `host`, in the foreground.';
  static override description =
    "Needs the config's `cluster` section. Announces the host in the cluster's NATS KV bucket (refreshed, with a TTL), " +
    'starts the pods other hosts place here (`yoi pod start --adopt`, in this project, with a scope reserved in this ' +
    "machine's scope.lock) and relays their reports to JetStream. Prints `host <name> serving <subject>` once ready; " +
    'stops on SIGINT/SIGTERM (the pods it started keep running). Run it under systemd to keep it up (docs/scaling.md).';
  static override flags = {
    ...configFlags,
    name: Flags.string({
      description: "the host's name in the cluster (default: cluster.host, $YOI_HOST_NAME, the OS host name)",
      helpValue: 'NAME',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Host);
    const [{ loadProject }, { clusterSection }, { clusterHostName }, { YoiHost }, { validatePodName, YoiError }] =
      await Promise.all([
        import('../loadProject.js'),
        import('../../plugins/cluster/readCluster.js'),
        import('../../plugins/cluster/hostName.js'),
        import('../../plugins/cluster/host/YoiHost.js'),
        import('../../core/api.js'),
      ]);
    const { config } = await loadProject({ configFile: flags.config, checkProvider: false });
    const cluster = clusterSection(config.sections);
    const name = flags.name ?? clusterHostName(cluster);
    const bad = validatePodName(name);
    if (bad) throw new YoiError('YOI_ERR_USAGE', `invalid host name: ${bad}`);
    const host = new YoiHost({
      name,
      config: cluster,
      projectDir: cluster.hosts[name]?.projectDir ?? config.projectDir,
      configPath: config.configPath,
      ...(config.configDigest ? { configDigest: config.configDigest } : {}),
      env: process.env,
      log: (line) => process.stderr.write(`yoi host: ${line}\n`),
    });
    await host.start();
    this.print(`host ${name} serving ${host.subject}`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await host.stop();
  }
}
