import path from 'node:path';
import { Flags } from '@oclif/core';
import { YoiCommand } from '../../YoiCommand.js';
import { configFlags } from '../../flags.js';

export default class PodStart extends YoiCommand {
  static override summary = 'Start a pod: one agent session served on a Unix socket.';
  static override description =
    'Runs in the foreground until stopped (Ctrl-C, SIGTERM or `yoi pod stop`); prints `listening <socket>` as its first line once it accepts connections. With --detach it returns as soon as the pod is ready.';
  static override examples = [
    '<%= config.bin %> pod start',
    '<%= config.bin %> pod start --name reviewer --detach',
    '<%= config.bin %> pod start --resume',
    '<%= config.bin %> pod start --listen ws://127.0.0.1:7777',
  ];
  static override flags = {
    ...configFlags,
    name: Flags.string({ description: 'pod name (default: the config\'s name, else "default")', helpValue: 'N' }),
    socket: Flags.string({ description: 'socket path (default: <runtime dir>/<name>/sock)', helpValue: 'PATH' }),
    detach: Flags.boolean({ description: 'start in the background and return once it is ready' }),
    resume: Flags.string({
      description: "restore this pod's newest session, or the given one (an id or a unique prefix; see yoi sessions)",
      helpValue: '[ID]',
    }),
    listen: Flags.string({
      description:
        'also listen on ws://HOST:PORT or wss://HOST:PORT (repeatable; loopback unless the config allows more; port 0 picks one)',
      helpValue: 'URL',
      multiple: true,
    }),
    'tls-cert': Flags.string({
      description: 'PEM certificate for the wss:// listeners given with --listen',
      helpValue: 'FILE',
      dependsOn: ['tls-key'],
    }),
    'tls-key': Flags.string({
      description: 'PEM private key for the wss:// listeners given with --listen',
      helpValue: 'FILE',
      dependsOn: ['tls-cert'],
    }),
    'token-env': Flags.string({
      description:
        "the listeners' bearer token is in this environment variable (default: <runtime dir>/<name>/token, made at the first start)",
      helpValue: 'VAR',
    }),
    adopt: Flags.boolean({
      hidden: true,
      description: 'started by a parent pod (with --callback)',
      dependsOn: ['callback'],
    }),
    callback: Flags.string({
      hidden: true,
      description: "the parent pod's socket",
      helpValue: 'SOCK',
      dependsOn: ['adopt'],
    }),
    instruction: Flags.string({
      hidden: true,
      description: 'added to the system prompt (with --adopt)',
      helpValue: 'TEXT',
      dependsOn: ['adopt'],
    }),
    'config-digest': Flags.string({
      hidden: true,
      description: "the config's digest as the parent loaded it (with --adopt)",
      helpValue: 'SHA256',
      dependsOn: ['adopt'],
    }),
    'mcp-servers': Flags.string({
      hidden: true,
      description: "MCP servers for this pod only, added to the config's (a JSON file in the mcp.servers form)",
      helpValue: 'FILE',
    }),
  };

  async run(): Promise<void> {
    // `--resume` takes an optional value: a bare `--resume` means the newest session.
    const argv = [...this.argv];
    const i = argv.indexOf('--resume');
    if (i >= 0 && (i === argv.length - 1 || argv[i + 1].startsWith('-'))) argv.splice(i + 1, 0, 'latest');
    const { flags } = await this.parse({ flags: PodStart.flags, args: {}, strict: true }, argv);
    if (flags.name !== undefined) {
      // Before anything touches the runtime directory: a name is a directory there.
      const [{ podNameProblem }, { YoiError }] = await Promise.all([
        import('../../../core/pod/podName.js'),
        import('../../../core/errors/YoiError.js'),
      ]);
      const bad = podNameProblem(flags.name);
      if (bad) throw new YoiError('YOI_ERR_POD_NAME', bad);
    }
    if (flags.detach) {
      const { startDetached } = await import('../../startDetached.js');
      this.print(
        `listening ${await startDetached(
          argv.filter((a) => a !== '--detach'),
          flags,
        )}`,
      );
      return;
    }
    const { runPodForeground } = await import('../../runPodForeground.js');
    const mcpServers =
      flags['mcp-servers'] === undefined
        ? undefined
        : await (await import('../../readMcpServersFile.js')).readMcpServersFile(flags['mcp-servers']);
    await runPodForeground(
      {
        config: flags.config,
        name: flags.name,
        socket: flags.socket,
        resume: flags.resume === undefined ? undefined : flags.resume === 'latest' ? true : flags.resume,
        listen:
          flags.listen || flags['token-env']
            ? {
                urls: flags.listen ?? [],
                ...(flags['token-env'] ? { tokenEnv: flags['token-env'] } : {}),
                ...(flags['tls-cert'] && flags['tls-key']
                  ? { tlsCert: path.resolve(flags['tls-cert']), tlsKey: path.resolve(flags['tls-key']) }
                  : {}),
              }
            : undefined,
        adopt:
          flags.adopt && flags.callback
            ? { callback: flags.callback, instruction: flags.instruction, configDigest: flags['config-digest'] }
            : undefined,
        mcpServers,
      },
      (line) => this.print(line),
    );
  }
}
