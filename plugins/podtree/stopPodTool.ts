import { z } from 'zod';
import { definePlugin } from '../../core/plugin/definePlugin.js';
import { PodNameSchema } from '../../core/pod/PodNameSchema.js';
import type { Tool } from '../../core/tools/Tool.js';
import { ToolRefusal, refusalsAsResults } from '../tools/shared/ToolRefusal.js';
import { formatRules } from './shared/formatRules.js';
import { podTreeOf } from './shared/podTreeOf.js';
import { requestShutdown } from './shared/requestShutdown.js';

export const STOP_POD = 'yoi:stop-pod';

export const StopPodInputSchema = z.object({ name: PodNameSchema.describe('The pod to stop.') });

/**
 * `StopPod`: shuts a managed pod down (waiting until it is gone, so its own report arrives
 * first), releases its scope (its pods are handed to this pod) and forgets it.
 */
export const stopPodTool = definePlugin({
  name: STOP_POD,
  apply(host) {
    host.hooks.tools.for('StopPod').tap(STOP_POD, (): Tool<z.infer<typeof StopPodInputSchema>> => ({
      name: 'StopPod',
      description: 'Stops a pod you manage and takes back the scope you delegated to it.',
      input: StopPodInputSchema,
      execute: (input, ctx) => refusalsAsResults(async () => {
        const tree = podTreeOf(ctx);
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
