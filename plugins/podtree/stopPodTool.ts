import { z } from 'zod';
import { PodTreeService } from './podTreePlugin.js';
import { formatRules } from './shared/formatRules.js';
import { requestShutdown } from './shared/requestShutdown.js';
import { connectToManaged } from './shared/connectToManaged.js';
import { RemotePodsService, type RemotePods } from './shared/RemotePods.js';
import type { SpawnedPodRecord } from './tree/SpawnedRegistry.js';
import { addressPod, PodAddressSchema } from './remote/addressPod.js';
import { PodRemotesService } from './remote/PodRemotes.js';
import { stopRemotePod } from './remote/stopRemotePod.js';
import { definePlugin, refusalsAsResults, type Tool } from '../../core/api.js';

export const STOP_POD = 'yoi:stop-pod';

export const StopPodInputSchema = z.object({
  name: PodAddressSchema.describe('The pod to stop (a name, or the ws(s):// URL of a remote pod of your config).'),
});

/**
 * `StopPod`: shuts a managed pod down (waiting until it is gone, so its own report arrives
 * first), releases its scope (its pods are handed to this pod) and forgets it.
 */
export const stopPodTool = definePlugin({
  name: STOP_POD,
  apply(api) {
    const podTree = api.use(PodTreeService);
    const remotePods = api.useOptional(RemotePodsService);
    const podRemotes = api.useOptional(PodRemotesService);
    api.hooks.tools.for('StopPod').tap(STOP_POD, (): Tool<z.infer<typeof StopPodInputSchema>> => ({
      name: 'StopPod',
      description: 'Stops a pod you manage and takes back the scope you delegated to it.',
      input: StopPodInputSchema,
      execute: (input, ctx) =>
        refusalsAsResults(async () => {
          const tree = podTree();
          const { name } = input;
          const target = addressPod(name, tree, podRemotes());
          if (target.kind === 'remote') return stopRemotePod(target.remotes, target.remote, ctx.podName);
          const { record } = target;
          const reached = record.host
            ? await stopRemote(record, ctx.podName, remotePods())
            : await requestShutdown(record.socket_path, ctx.podName);
          const released = await tree.forget(name);
          const scope = formatRules(released?.scope_allow ?? record.scope_delegated);
          return {
            summary: `${reached ? 'stopped' : 'forgot the unreachable'} pod \`${name}\`; reclaimed scope: ${scope}`,
          };
        }),
    }));
  },
});

/** Asks a pod on another host to shut down (its host waits for it); false when it could not be reached. */
async function stopRemote(record: SpawnedPodRecord, self: string, remote: RemotePods | undefined): Promise<boolean> {
  try {
    await (await connectToManaged(record, self, remote)).request({ method: 'shutdown' });
    return true;
  } catch {
    return false;
  }
}
