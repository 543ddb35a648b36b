import { timingSafeEqual } from 'node:crypto';
import { PodTreeService } from './podTreePlugin.js';
import type { PodTree } from './tree/PodTree.js';
import { definePlugin, type PodEvent, podEventSource } from '../../core/api.js';

export const SPAWNED_POD_EVENTS = 'yoi:spawned-pod-events';

/**
 * The parent side's bookkeeping for its children's reports. First, who may report: only a pod
 * this pod spawned (or was told about by `scope_sub_delegated`), presenting in `hello` the secret
 * handed to it at spawn — anything else is refused with an error to the sender, before any side
 * effect (a client cannot fake `shut_down` for a live child, or point `scope_sub_delegated` at an
 * unrelated pod). Then the side effects (`podEvent`): `shut_down` forgets the child (registry
 * record and scope.lock allocation; its own pods are handed to this pod); `scope_sub_delegated`
 * records the grandchild with its secret, so this pod can still manage and hear it if the child
 * dies, and reports it further up as its own delegation. `turn_ended` and `errored` have no side
 * effect: the model reads them and decides.
 */
export const spawnedPodEvents = definePlugin({
  name: SPAWNED_POD_EVENTS,
  apply(api) {
    const podTree = api.use(PodTreeService);

    api.hooks.checkPodEvent.tapPromise(SPAWNED_POD_EVENTS, async (event, ctx) =>
      refusal(podTree(), event, ctx.client.credential),
    );

    api.hooks.podEvent.for('shut_down').tapPromise(SPAWNED_POD_EVENTS, async (event) => {
      if (event.kind !== 'shut_down') return;
      await podTree().forget(event.pod_name);
    });

    api.hooks.podEvent.for('scope_sub_delegated').tapPromise(SPAWNED_POD_EVENTS, async (event, ctx) => {
      const tree = podTree();
      if (event.kind !== 'scope_sub_delegated') return;
      const known = tree.registry.get(event.sub_pod) !== undefined;
      if (!known) {
        tree.registry.add({
          pod_name: event.sub_pod,
          socket_path: event.sub_socket,
          scope_delegated: event.scope,
          callback_address: tree.registry.get(event.parent_pod)?.socket_path ?? '',
          via: event.parent_pod,
          spawned_at: Date.now(),
          ...(event.secret ? { secret: event.secret } : {}),
        });
      }
      // Re-sent under an id derived from this report's: when this pod was killed after recording the
      // grandchild and the report comes again, the copy that goes up is the same report, applied once.
      if (ctx.requestId !== undefined)
        tree.reportUpward({ ...event, parent_pod: ctx.podName }, `up-${event.parent_pod}-${ctx.requestId}`);
      else if (!known) tree.reportUpward({ ...event, parent_pod: ctx.podName });
    });
  },
});

/** Why a report is refused, or undefined when it comes from the pod it is about. */
function refusal(tree: PodTree, event: PodEvent, credential: string | undefined): string | undefined {
  const source = podEventSource(event);
  const secret = tree.secretOf(source);
  if (!tree.registry.get(source) && secret === undefined)
    return `pod_event refused: \`${shown(source)}\` is not a pod this pod spawned or was told about`;
  if (!secret || credential === undefined || !sameSecret(secret, credential)) {
    return `pod_event refused: the sender did not authenticate as pod \`${shown(source)}\``;
  }
  if (event.kind === 'scope_sub_delegated' && event.sub_pod === tree.name)
    return 'pod_event refused: a pod cannot report this pod as its own child';
  return undefined;
}

/** A name a client sent, as an error quotes it: at most 100 characters (the pod sends every refusal as one line). */
function shown(name: string): string {
  return name.length > 100 ? `${name.slice(0, 100)}…` : name;
}

/** Constant-time comparison (the secret is not leaked through timing). */
function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
