import { z } from 'zod';
import { PodTree, type AdoptLaunch } from './tree/PodTree.js';
import { definePlugin, defineService } from '../../core/api.js';

export const POD_TREE = 'yoi:pod-tree';

/** The pod's place in the pod tree: scope.lock allocation, the pods it manages, its parent. */
export const PodTreeService = defineService<PodTree>(
  POD_TREE,
  "the pod's place in the pod tree (scope.lock, spawned pods)",
);

/** `launch.adopt`: set by `yoi pod start --adopt --callback SOCK` (what SpawnPod starts). */
const AdoptLaunchSchema = z.object({
  callback: z.string().min(1),
  instruction: z.string().optional(),
  secret: z.string().optional(),
});

/** The pod's `launch.adopt`, when SpawnPod started it. */
export function adoptLaunch(launch: Readonly<Record<string, unknown>>): AdoptLaunch | undefined {
  if (launch.adopt === undefined) return undefined;
  return AdoptLaunchSchema.parse(launch.adopt);
}

/**
 * Owns the pod tree (ARCHITECTURE §7) and provides it to the pod tools and the report
 * handlers: a pod started by SpawnPod takes over the scope reserved for it (its config's scope
 * is not used) and gets the spawner's instruction in its system prompt; every pod registers in
 * scope.lock at start and releases at stop.
 */
export const podTreePlugin = definePlugin({
  name: POD_TREE,
  apply(api) {
    const tree = new PodTree();
    api.provide(PodTreeService, tree);

    api.hooks.resolveScope.tapPromise(POD_TREE, (request) =>
      tree.open(request.podName, request.runtime, adoptLaunch(request.launch)),
    );

    api.hooks.podInit.tapPromise(POD_TREE, async (pod) => {
      await tree.attach(pod.services.scope);
      for (const note of tree.notes) pod.services.note(note);
    });

    api.hooks.systemPrompt.tapPromise(POD_TREE, async (prompt, pod) => {
      const instruction = adoptLaunch(pod.launch)?.instruction;
      return instruction ? `${prompt}\n\n${instruction}` : prompt;
    });

    api.hooks.podStop.tapPromise(POD_TREE, () => tree.close());
  },
});
