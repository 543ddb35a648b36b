import { definePlugin } from '../../core/plugin/definePlugin.js';

export const SPAWNED_POD_EVENTS = 'yoi:spawned-pod-events';

/**
 * The parent side's bookkeeping for its children's reports (`podEvent` side effects):
 * `shut_down` forgets the child (registry record and scope.lock allocation; its own pods are
 * handed to this pod); `scope_sub_delegated` records the grandchild, so this pod can still
 * manage it if the child dies, and reports it further up as its own delegation. `turn_ended`
 * and `errored` have no side effect: the model reads them and decides.
 */
export const spawnedPodEvents = definePlugin({
  name: SPAWNED_POD_EVENTS,
  apply(host) {
    host.hooks.podEvent.for('shut_down').tapPromise(SPAWNED_POD_EVENTS, async (event, ctx) => {
      const tree = ctx.services.podTree;
      if (event.kind !== 'shut_down' || !tree) return;
      await tree.forget(event.pod_name);
    });

    host.hooks.podEvent.for('scope_sub_delegated').tapPromise(SPAWNED_POD_EVENTS, async (event, ctx) => {
      const tree = ctx.services.podTree;
      if (event.kind !== 'scope_sub_delegated' || !tree || tree.registry.get(event.sub_pod)) return;
      tree.registry.add({
        pod_name: event.sub_pod, socket_path: event.sub_socket, scope_delegated: event.scope,
        callback_address: tree.registry.get(event.parent_pod)?.socket_path ?? '', via: event.parent_pod, spawned_at: Date.now(),
      });
      tree.reportUpward({ ...event, parent_pod: ctx.podName });
    });
  },
});
