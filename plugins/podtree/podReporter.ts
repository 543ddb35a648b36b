import { definePlugin } from '../../core/plugin/definePlugin.js';
import type { PodServices } from '../../core/hooks/PodServices.js';
import { podClientName } from '../../core/podtree/PodTree.js';
import { PodEventOutbox } from './PodEventOutbox.js';

export const POD_REPORTER = 'yoi:pod-reporter';

/** How long a stopping child waits for its last reports to be acknowledged. */
const SHUTDOWN_DRAIN_MS = 5000;

const outboxes = new WeakMap<PodServices, PodEventOutbox>();

/**
 * The child side of the pod tree: a pod started by SpawnPod reports to its parent's socket
 * (`--callback`) through an outbox (acknowledged, retried, in order; never blocking the pod):
 * `turn_ended` when a run its parent started ends (`finished` or `limit_reached`; turns driven
 * by notifications or by someone else are not reported, they would flood the parent),
 * `errored` when any run fails, `shut_down` on every clean shutdown (`yoi pod stop`, SIGTERM,
 * SIGINT), and `scope_sub_delegated` for each pod it spawns (sent by SpawnPod and by the
 * handler re-reporting a grandchild, through `podTree.reportUpward`).
 */
export const podReporter = definePlugin({
  name: POD_REPORTER,
  apply(host) {
    host.hooks.podStart.tapPromise(POD_REPORTER, async (pod) => {
      const tree = pod.services.podTree;
      if (!tree?.callback) return;
      const outbox = new PodEventOutbox({ socketPath: tree.callback, clientName: podClientName(pod.podName) });
      outboxes.set(pod.services, outbox);
      tree.setReporter((event) => void outbox.send(event));
    });

    host.hooks.runEnd.tapPromise(POD_REPORTER, async (run) => {
      const tree = run.services.podTree;
      if (!tree?.callback) return;
      if (run.result === 'error') {
        tree.reportUpward({ kind: 'errored', pod_name: run.podName, message: run.error ?? 'the run failed' });
      } else if ((run.result === 'finished' || run.result === 'limit_reached') && tree.parentName && run.client === podClientName(tree.parentName)) {
        tree.reportUpward({ kind: 'turn_ended', pod_name: run.podName });
      }
    });

    host.hooks.podStop.tapPromise(POD_REPORTER, async (pod) => {
      const outbox = outboxes.get(pod.services);
      if (!outbox) return;
      pod.services.podTree?.reportUpward({ kind: 'shut_down', pod_name: pod.podName });
      await outbox.drain(SHUTDOWN_DRAIN_MS);
      pod.services.podTree?.setReporter(undefined);
      outbox.close();
    });
  },
});
