import { Args, Flags } from '@oclif/core';
import { YoiCommand } from '../YoiCommand.js';
import { configFlags, jsonFlag, podFlags } from '../flags.js';

export default class Send extends YoiCommand {
  static override summary = 'Send input to a pod and stream the reply.';
  static override description =
    'Text arguments become a text segment; piped stdin becomes a paste segment; --file, --knowledge and --workflow add @path, #slug and /slug segments. The reply streams to stdout, alerts to stderr. Exits non-zero if the run ends with an error or is cancelled. Ctrl-C cancels the run.';
  static override examples = [
    '<%= config.bin %> send "explain this" --file src/index.ts',
    'git diff | <%= config.bin %> send "review this diff"',
  ];
  static override strict = false;
  static override args = { text: Args.string({ description: 'text of the message' }) };
  static override flags = {
    ...configFlags,
    ...podFlags,
    ...jsonFlag,
    file: Flags.string({ description: 'add an @path reference (repeatable)', helpValue: 'PATH', multiple: true }),
    knowledge: Flags.string({ description: 'add a #slug knowledge reference (repeatable)', helpValue: 'SLUG', multiple: true }),
    workflow: Flags.string({ description: 'invoke /slug for this run', helpValue: 'SLUG' }),
  };

  async run(): Promise<void> {
    const { flags, argv } = await this.parse(Send);
    const [{ connectPod }, { sendSegments }, { encodeEvent }, { YoiError }, { permissionEventLine }] = await Promise.all([
      import('../podTarget.js'), import('../inputSegments.js'), import('../../core/protocol/index.js'), import('../../core/errors/YoiError.js'),
      import('../permissionLines.js'),
    ]);
    const stdin = process.stdin.isTTY ? undefined : await readStdin();
    const input = sendSegments({ text: argv as string[], stdin, files: flags.file, knowledge: flags.knowledge, workflow: flags.workflow });
    if (input.length === 0) throw new YoiError('YOI_ERR_USAGE', 'nothing to send: give text, pipe stdin, or use --file/--knowledge/--workflow');
    const { client, name } = await connectPod(flags);
    // Events plugins define: permission asks say their id and how to answer (stderr, like alerts).
    client.onExtensionEvent((e) => {
      if (flags.json) process.stdout.write(`${JSON.stringify(e)}\n`);
      const line = flags.json ? undefined : permissionEventLine(e, name);
      if (line) process.stderr.write(`${line}\n`);
    });

    let wroteText = false;
    let accepted = false;
    const terminal = new Promise<{ ok: boolean; message?: string }>((resolve) => {
      client.onEvent((e) => {
        if (flags.json) process.stdout.write(`${encodeEvent(e)}\n`);
        // Events are handled in order as they are read: the run's events follow its ack, possibly
        // in the same chunk, so acceptance is noted here (acks go to the requester only).
        if (e.event === 'ack' && e.data.method === 'run') accepted = true;
        if (!accepted && e.event !== 'user_message' && e.event !== 'status' && e.event !== 'alert') return;
        switch (e.event) {
          case 'text_delta':
            if (!flags.json) process.stdout.write(e.data.text);
            wroteText = true;
            break;
          case 'alert':
            if (!flags.json) process.stderr.write(`[${e.data.level}] ${e.data.message}\n`);
            break;
          case 'run_end':
            resolve(e.data.result === 'cancelled' ? { ok: false, message: 'the run was cancelled' } : { ok: true });
            break;
          case 'error':
            if (e.request_id === undefined) resolve({ ok: false, message: `${e.data.code}: ${e.data.message}` });
            break;
          case 'shutdown':
            resolve({ ok: false, message: 'the pod shut down during the run' });
            break;
        }
      });
      void client.closed.then(() => resolve({ ok: false, message: 'the connection to the pod closed during the run' }));
    });
    const onSigint = () => client.send({ method: 'cancel' });
    process.once('SIGINT', onSigint);
    try {
      await client.request({ method: 'run', params: { input } });
      const end = await terminal;
      if (wroteText && !flags.json) process.stdout.write('\n');
      if (!end.ok) throw new YoiError('YOI_ERR_REQUEST', end.message ?? 'the run failed');
    } finally {
      process.off('SIGINT', onSigint);
      await client.close();
    }
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
