import type { Hooks } from '../hooks/createHooks.js';
import { podEventKind, UnknownPodEvent, type PodEvent } from '../protocol/index.js';

/**
 * The line the parent's model reads for a child's report: the first `renderPodEvent` tap that
 * answers. No answer (an unknown kind, a removed renderer plugin, a failing one) still gives a
 * generic line plus an alert, so a report is never dropped. `null`: a plugin consumed the
 * report, the model is not told.
 */
export function renderPodEvent(hooks: Hooks, event: PodEvent, alert: (message: string) => void): string | null {
  const kind = podEventKind(event);
  const podName =
    event instanceof UnknownPodEvent ? event.podName : 'pod_name' in event ? event.pod_name : event.parent_pod;
  let reason = `no plugin renders pod events of kind "${kind}"`;
  const hook = hooks.renderPodEvent.get(kind);
  if (hook && hook.taps.length > 0) {
    try {
      const text = hook.call(event);
      if (text === null) return null;
      if (typeof text === 'string' && text !== '') return text;
      reason = 'every renderer declined it';
    } catch (e) {
      reason = (e as Error).message;
    }
  }
  alert(`pod event ${kind} from ${podName} shown as a generic line (${reason})`);
  const details = JSON.stringify(event);
  return `Pod \`${podName}\` reported \`${kind}\`: ${details.length > 500 ? `${details.slice(0, 500)}…` : details}`;
}
