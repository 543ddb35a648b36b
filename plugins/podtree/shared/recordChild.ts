import type { PodTree } from '../tree/PodTree.js';
import type { SpawnedPodRecord } from '../tree/SpawnedRegistry.js';
import { ToolRefusal } from '../../../core/api.js';

/**
 * Records a child in `spawned_pods.json` before it is started or placed. A record that cannot
 * be written (a full disk) refuses the spawn, naming the file: nothing may run that no record
 * points to. `notDone`: what did not happen, for the message ("not started", "not placed").
 */
export function recordChild(tree: PodTree, record: SpawnedPodRecord, notDone: string): void {
  try {
    tree.registry.add(record);
  } catch (e) {
    throw new ToolRefusal(
      `pod \`${record.pod_name}\` was ${notDone}: it could not be recorded in ${tree.spawnedPodsFile} (${(e as Error).message})`,
    );
  }
}
