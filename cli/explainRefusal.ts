import { PodRequestError } from '../client/PodClient.js';
import type { PodTarget } from './podTarget.js';

type Asked = 'run' | 'resume' | 'cancel' | 'pause' | 'compact' | 'shutdown' | 'get_history';

/**
 * A pod's refusal said the way a user can act on it: what state the pod is in and what to do
 * (the pod's own messages are the original's, kept for v1 clients). Other errors pass through.
 */
export function explainRefusal(error: unknown, target: PodTarget, asked: Asked): unknown {
  if (!(error instanceof PodRequestError)) return error;
  const pod = `pod ${target.name}`;
  const said = error.message.replace(/^[a-z_]+: /, '');
  const compacting = /compacting/i.test(said);
  let text: string | undefined;
  switch (error.podCode) {
    case 'not_running':
      text = `no turn is running in ${pod}: nothing to ${asked === 'pause' ? 'pause' : 'cancel'}`;
      break;
    case 'not_paused':
      text = `${pod} is not paused: nothing to resume`;
      break;
    case 'already_running':
      if (compacting)
        text = `${pod} is compacting its history: try again when it is done, or stop the compaction with yoi cancel ${target.flag}`;
      else if (asked === 'run')
        text = `${pod} is already running a turn: wait for it to end (yoi attach ${target.flag} shows it live), cancel it with yoi cancel ${target.flag}, or queue this input in yoi attach (Enter queues it until the run ends)`;
      else text = `${pod} is already running a turn`;
      break;
    default:
      text = said;
  }
  return new PodRequestError(error.podCode, text);
}
