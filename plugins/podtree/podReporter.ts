import { PodTreeService } from './podTreePlugin.js';
import { PodEventOutbox } from './PodEventOutbox.js';
import { podClientName } from './shared/podClientName.js';
import { definePlugin, type PodServices } from '../../core/api.js';

export const POD_REPORTER = 'yoi:pod-reporter';

/** How long a stopping child waits for its last reports to be acknowledged. */
const SHUTDOWN_DRAIN_MS = 5000;

const outboxes = new WeakMap<PodServices, PodEventOutbox>();

/**
 * The child side of the pod tree: a pod started by SpawnPod reports to its parent through an
 * outbox (acknowledged, retried, in order; never blocking the pod). The parent is the one in
 * scope.lock (the `--callback` pod, or the pod it was handed to when that one died):
 * `turn_ended` when a run its parent started ends (`finished` or `limit_reached`; turns driven
 * by notifications or by someone else are not reported, they would flood the parent),
 * `errored` when any run fails, `shut_down` on every clean shutdown (`yoi pod stop`, SIGTERM,
 * SIGINT), and `scope_sub_delegated` for each pod it spawns (sent by SpawnPod and by the
 * handler re-reporting a grandchild, through `podTree.reportUpward`).
 */
export const podReporter = definePlugin({
  name: POD_REPORTER,
  apply(api) {
    const podTree = api.use(PodTreeService);
    api.hooks.podStart.tapPromise(POD_REPORTER, async (pod) => {
      const tree = podTree();
      if (!tree.callback) return;
      const callback = tree.callback;
      const outbox = new PodEventOutbox({
        socketPath: callback,
        clientName: podClientName(pod.podName),
        ...(tree.secret ? { auth: tree.secret } : {}),
        target: async (retrying) => (await tree.reportTarget(retrying)) ?? callback,
      });
      outboxes.set(pod.services, outbox);
      tree.setReporter((event, id) => void outbox.send(event, id !== undefined ? { id } : {}));
    });

    api.hooks.runEnd.tapPromise(POD_REPORTER, async (run) => {
      const tree = podTree();
      const outbox = outboxes.get(run.services);
      if (!outbox) return;
      if (run.result === 'error') {
        outbox.send({ kind: 'errored', pod_name: run.podName, message: run.error ?? 'the run failed' });
      } else if (
        (run.result === 'finished' || run.result === 'limit_reached') &&
        run.client?.name?.startsWith(podClientName(''))
      ) {
        // Whether the run's sender is the parent is known once the outbox found the parent (it
        // changes when a dead parent's pods are handed over).
        const sender = run.client.name;
        outbox.send(
          { kind: 'turn_ended', pod_name: run.podName },
          { onlyIf: () => tree.parentName !== undefined && sender === podClientName(tree.parentName) },
        );
      }
    });

    api.hooks.podStop.tapPromise(POD_REPORTER, async (pod) => {
      const outbox = outboxes.get(pod.services);
      if (!outbox) return;
      podTree().reportUpward({ kind: 'shut_down', pod_name: pod.podName });
      await outbox.drain(SHUTDOWN_DRAIN_MS, { giveUpIfGone: true });
      podTree().setReporter(undefined);
      outbox.close();
    });
  },
});
