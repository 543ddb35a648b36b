import { Flags } from '@oclif/core';

/**
 * Flag definitions shared by commands, so every command spells them the same way.
 * Spread the groups into a command's `flags`: `static flags = { ...configFlags, ...jsonFlag }`.
 */

/** `--config FILE`: which config to load (otherwise `YOI_CONFIG`, otherwise the search). */
export const configFlags = {
  config: Flags.string({
    description: 'config file to use instead of searching from the current directory (also YOI_CONFIG)',
    helpValue: 'FILE',
  }),
};

/** `--json`: machine-readable output on stdout. */
export const jsonFlag = {
  json: Flags.boolean({ description: 'print JSON instead of text' }),
};

/** `--pod NAME` / `--socket PATH` / `--url URL [--token-env VAR]`: which pod a command talks to. */
export const podFlags = {
  pod: Flags.string({
    description: 'name of the pod to talk to (default: the config\'s name, else "default")',
    helpValue: 'NAME',
    exclusive: ['socket', 'url'],
  }),
  socket: Flags.string({
    description: 'socket path of the pod to talk to (instead of --pod)',
    helpValue: 'PATH',
    exclusive: ['pod', 'url'],
  }),
  url: Flags.string({
    description:
      "a pod's network listener, ws://HOST:PORT or wss://HOST:PORT (instead of --pod); its token from YOI_TOKEN or --token-env",
    helpValue: 'URL',
    exclusive: ['pod', 'socket'],
  }),
  'token-env': Flags.string({
    description: 'environment variable holding the bearer token for --url (default: YOI_TOKEN)',
    helpValue: 'VAR',
    dependsOn: ['url'],
  }),
};
