import { z } from 'zod';
import { PodTreeService } from './podTreePlugin.js';
import { formatRules } from './shared/formatRules.js';
import { requestShutdown } from './shared/requestShutdown.js';
import { definePlugin, PodNameSchema, refusalsAsResults, type Tool, ToolRefusal } from '../../core/api.js';

export const STOP_POD = 'yoi:stop-pod';

export const StopPodInputSchema = z.object({ name: PodNameSchema.describe('The pod to stop.') });

/**
 * `StopPod`: shuts a managed pod down (waiting until it is gone, so its own report arrives
 * first), releases its scope (its pods are handed to this pod) and forgets it.
 */
export const stopPodTool = definePlugin({
  name: STOP_POD,
  apply(api) {
    const podTree = api.use(PodTreeService);
    api.hooks.tools.for('StopPod').tap(STOP_POD, (): Tool<z.infer<typeof StopPodInputSchema>> => ({
      name: 'StopPod',
      description: 'Stops a pod you manage and takes back the scope you delegated to it.',
      input: StopPodInputSchema,
      execute: (input, ctx) => refusalsAsResults(async () => {
        const tree = podTree();
        const { name } = input;
        const record = tree.registry.get(name);
        if (!record) throw new ToolRefusal(`no spawned pod named \`${name}\``);
        const reached = await requestShutdown(record.socket_path, ctx.podName);
        const released = await tree.forget(name);
        const scope = formatRules(released?.scope_allow ?? record.scope_delegated);
        return { summary: `${reached ? 'stopped' : 'forgot the unreachable'} pod \`${name}\`; reclaimed scope: ${scope}` };
      }),
    }));
  },
});
