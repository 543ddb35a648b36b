import { PodRequestError, isSynthetic } from '../../client/PodClient.js';
import { YoiError } from '../../core/errors/YoiError.js';
import { encodeEvent, type Segment } from '../../core/protocol/index.js';
import { explainRefusal } from '../explainRefusal.js';
import { connectPod, type PodTargetFlags } from '../podTarget.js';
import {
  initialRenderState,
  renderClosed,
  renderEvent,
  renderUnknownEvent,
  type Outcome,
  type Rendered,
  type RenderState,
} from './renderRun.js';
import { RunWriter } from './RunWriter.js';
import { watchShutdown } from './shutdownFollows.js';

export interface SendOptions {
  flags: PodTargetFlags & { json?: boolean; quiet?: boolean };
  input: Segment[];
}

/**
 * Sends one run to a pod and shows it until it ends: the transcript on stdout (or NDJSON events
 * with `--json`), alerts on stderr. Resolves when the run finished; throws a one-line error
 * when it failed, was cancelled or paused, or the pod went away. Ctrl-C cancels the run.
 */
export async function runSend({ flags, input }: SendOptions): Promise<void> {
  const { client, target } = await connectPod(flags);
  // Defusing is per stream (`2>/dev/null` leaves stdout a terminal); colours, the spinner and
  // an alert ending the transcript's line want both streams on the terminal.
  const terminal = { out: process.stdout.isTTY === true, err: process.stderr.isTTY === true };
  const interactive = !flags.json && terminal.out && terminal.err;
  const color = interactive && !process.env.NO_COLOR;
  // A terminal that reports no width (some ptys) cannot hold a spinner: ora would redraw forever.
  const spinner = interactive && (process.stderr.columns ?? 0) > 0;
  const writer = new RunWriter({
    out: process.stdout,
    err: process.stderr,
    terminal,
    color,
    ora: spinner ? (await import('ora')).default : undefined,
  });
  let state: RenderState = initialRenderState({
    quiet: flags.quiet === true,
    v1: client.protocol === 1,
    sharedTerminal: interactive,
    target,
  });
  let ended!: (outcome: Outcome) => void;
  const outcome = new Promise<Outcome>((resolve) => (ended = resolve));
  const apply = ({ state: next, pieces }: Rendered) => {
    state = next;
    if (!flags.json) {
      writer.write(pieces);
      writer.show(state);
    }
    if (state.outcome) ended(state.outcome);
  };
  client.onEvent((e) => {
    if (flags.json && !isSynthetic(e)) writer.raw('out', `${encodeEvent(e)}\n`);
    apply(renderEvent(state, e));
  });
  client.onUnknownEvent((e) => {
    if (flags.json) writer.raw('out', `${e.line}\n`);
    apply(renderUnknownEvent(state, e));
  });
  void client.closed.then(() => apply(renderClosed(state)));
  const shutdown = watchShutdown(client);
  let cancelledHere = false;
  const onSigint = () => {
    cancelledHere = true;
    client.send({ method: 'cancel' });
  };
  // `yoi pod stop` cancels the run before the pod says `shutdown`: that is what ended it.
  const cancelled = async () => {
    if (!cancelledHere && (await shutdown.after()))
      return new YoiError('YOI_ERR_CONNECTION', `pod ${target.name} shut down during the run`);
    return new YoiError('YOI_ERR_REQUEST', 'the run was cancelled');
  };
  process.once('SIGINT', onSigint);
  try {
    await client.request({ method: 'run', params: { input } }).catch((e: unknown) => {
      throw explainRefusal(e, target, 'run');
    });
    const end = await outcome;
    writer.stop();
    switch (end.kind) {
      case 'finished':
      case 'limit_reached':
        return;
      case 'paused':
        throw new YoiError(
          'YOI_ERR_RUN_PAUSED',
          `the run was paused by another client: resume it with yoi resume ${target.flag} (yoi attach ${target.flag} shows it), or abandon it with yoi cancel ${target.flag}`,
        );
      case 'cancelled':
        throw await cancelled();
      case 'shutdown':
        throw new YoiError('YOI_ERR_CONNECTION', `pod ${target.name} shut down during the run`);
      case 'closed':
        throw (
          client.closedBecause ??
          new YoiError('YOI_ERR_CONNECTION', `the connection to pod ${target.name} closed during the run`)
        );
      case 'failed':
        // A v1 pod ends a cancelled run with error{internal,"Cancelled"}.
        if (end.code === 'internal' && end.message === 'Cancelled') throw await cancelled();
        throw new PodRequestError(end.code, `the run failed: ${end.message}`);
    }
  } finally {
    writer.stop();
    process.off('SIGINT', onSigint);
    await client.close();
  }
}
