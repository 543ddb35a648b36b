import { parseArgs } from 'node:util';
import { runPodForeground } from './runPodForeground.js';

/**
 * `yoi pod start --adopt --callback SOCK --name N [--config FILE] [--config-digest SHA256]
 * [--instruction TEXT]`, the
 * exact command line SpawnPod runs, handled without oclif: loading oclif is about a fifth of a
 * child pod's start-up, and these hidden flags are only ever written by yoi itself. bin/run.js
 * sends that form here; anything else goes through the `pod start` command.
 */
export async function startAdoptedPod(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      adopt: { type: 'boolean' },
      callback: { type: 'string' },
      name: { type: 'string' },
      config: { type: 'string' },
      'config-digest': { type: 'string' },
      instruction: { type: 'string' },
    },
  });
  if (!values.callback) {
    const { YoiError } = await import('../core/errors/YoiError.js');
    throw new YoiError('YOI_ERR_USAGE', '--adopt needs --callback SOCK');
  }
  // The report secret comes in the environment; nothing this pod starts inherits it.
  const secret = process.env.YOI_POD_SECRET;
  delete process.env.YOI_POD_SECRET;
  await runPodForeground(
    {
      name: values.name,
      config: values.config,
      adopt: {
        callback: values.callback,
        instruction: values.instruction,
        configDigest: values['config-digest'],
        ...(secret ? { secret } : {}),
      },
    },
    (line) => process.stdout.write(`${line}\n`),
  );
}
