import { z } from 'zod';
import { PodTreeService } from './podTreePlugin.js';
import { RemotePodsService } from './shared/RemotePods.js';
import { addressPod, connectAddressed, PodAddressSchema } from './remote/addressPod.js';
import { PodRemotesService } from './remote/PodRemotes.js';
import { definePlugin, PodRequestError, refusalsAsResults, type Tool, ToolRefusal } from '../../core/api.js';

export const SEND_TO_POD = 'yoi:send-to-pod';

export const SendToPodInputSchema = z.object({
  name: PodAddressSchema.describe(
    'The pod: one you spawned, one of its own pods, or a remote pod of your config (its name or its ws(s):// URL).',
  ),
  message: z.string().min(1).describe('What to tell it: it starts a turn on this message.'),
});

/** `SendToPod`: starts a turn of a managed pod with a message; the pod's `ack` confirms it. */
export const sendToPodTool = definePlugin({
  name: SEND_TO_POD,
  apply(api) {
    const podTree = api.use(PodTreeService);
    const remotePods = api.useOptional(RemotePodsService);
    const podRemotes = api.useOptional(PodRemotesService);
    api.hooks.tools.for('SendToPod').tap(SEND_TO_POD, (): Tool<z.infer<typeof SendToPodInputSchema>> => ({
      name: 'SendToPod',
      description:
        'Sends a message to a pod you manage; it starts a turn on it (refused while that pod is running a turn).',
      input: SendToPodInputSchema,
      execute: (input, ctx) =>
        refusalsAsResults(async () => {
          const tree = podTree();
          const target = addressPod(input.name, tree, podRemotes());
          let client;
          try {
            client = await connectAddressed(target, ctx.podName, remotePods());
          } catch (e) {
            if (e instanceof ToolRefusal) throw e;
            throw new ToolRefusal(
              `pod \`${input.name}\` is not reachable (${(e as Error).message}); ListPods shows which pods still run`,
            );
          }
          try {
            await client.request({ method: 'run', params: { input: [{ kind: 'text', content: input.message }] } });
          } catch (e) {
            if (e instanceof PodRequestError && e.podCode === 'already_running') {
              throw new ToolRefusal(`pod \`${input.name}\` is already running a turn; wait for it to finish and retry`);
            }
            throw new ToolRefusal(`pod \`${input.name}\` did not take the message: ${(e as Error).message}`);
          } finally {
            await client.close();
          }
          return { summary: `sent message to \`${input.name}\`` };
        }),
    }));
  },
});
