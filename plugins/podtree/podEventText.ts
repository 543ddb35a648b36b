import { definePlugin } from '../../core/api.js';

export const POD_EVENT_TEXT = 'yoi:pod-event-text';

/** The lines a parent's model reads for its children's reports (the original's wording). */
export const podEventText = definePlugin({
  name: POD_EVENT_TEXT,
  apply(api) {
    const render = api.hooks.renderPodEvent;
    render
      .for('turn_ended')
      .tap(POD_EVENT_TEXT, (e) => (e.kind === 'turn_ended' ? `Pod \`${e.pod_name}\` finished a turn.` : undefined));
    render
      .for('errored')
      .tap(POD_EVENT_TEXT, (e) =>
        e.kind === 'errored' ? `Pod \`${e.pod_name}\` reported an error: ${e.message}` : undefined,
      );
    render
      .for('shut_down')
      .tap(POD_EVENT_TEXT, (e) => (e.kind === 'shut_down' ? `Pod \`${e.pod_name}\` has stopped.` : undefined));
    render
      .for('scope_sub_delegated')
      .tap(POD_EVENT_TEXT, (e) =>
        e.kind === 'scope_sub_delegated'
          ? `Pod \`${e.parent_pod}\` spawned \`${e.sub_pod}\` and delegated scope to it.`
          : undefined,
      );
  },
});
