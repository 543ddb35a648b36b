import { z } from 'zod';
import { PodTreeService } from './podTreePlugin.js';
import { RemotePodsService } from './shared/RemotePods.js';
import { addressPod, connectAddressed, PodAddressSchema } from './remote/addressPod.js';
import { PodRemotesService, type ReadCursor } from './remote/PodRemotes.js';
import { definePlugin, refusalsAsResults, type Tool, ToolRefusal } from '../../core/api.js';

export const READ_POD_OUTPUT = 'yoi:read-pod-output';

export const ReadPodOutputInputSchema = z.object({
  name: PodAddressSchema.describe('The pod to read (a name, or the ws(s):// URL of a remote pod of your config).'),
});

/**
 * `ReadPodOutput`: the assistant text a managed pod wrote since the last read. The cursor is an
 * item count within one session: when the pod's session changed (a compaction, a restart), its
 * whole current history is read again.
 */
export const readPodOutputTool = definePlugin({
  name: READ_POD_OUTPUT,
  apply(api) {
    const podTree = api.use(PodTreeService);
    const remotePods = api.useOptional(RemotePodsService);
    const podRemotes = api.useOptional(PodRemotesService);
    api.hooks.tools.for('ReadPodOutput').tap(READ_POD_OUTPUT, (): Tool<z.infer<typeof ReadPodOutputInputSchema>> => ({
      name: 'ReadPodOutput',
      description:
        'Returns what a pod you manage has answered since you last read it, and whether it is idle or running.',
      input: ReadPodOutputInputSchema,
      execute: (input, ctx) =>
        refusalsAsResults(async () => {
          const tree = podTree();
          const { name } = input;
          const target = addressPod(name, tree, podRemotes());
          let client;
          try {
            client = await connectAddressed(target, ctx.podName, remotePods());
          } catch (e) {
            if (e instanceof ToolRefusal) throw e;
            // A remote pod is not ours to call stopped: it may be down, or the network.
            if (target.kind === 'remote')
              throw new ToolRefusal(`pod \`${name}\` is not reachable (${(e as Error).message})`);
            return { summary: `pod \`${name}\` is stopped (unreachable)` };
          }
          let items: unknown[];
          try {
            const reply = await client.request({ method: 'get_history' });
            items = reply.event === 'history' ? reply.data.items : [];
          } finally {
            await client.close();
          }
          // A v1 pod (the original) sends no welcome: its state is not known.
          const status =
            client.welcome?.status ??
            (client.protocol === 1 ? 'reachable (a v1 pod, which does not report its state)' : 'running');
          const session = client.welcome?.session_id ?? '';
          const cursor: ReadCursor | undefined =
            target.kind === 'remote' ? target.remotes.cursor(target.remote.name) : target.record.read_cursor;
          const from = cursor && cursor.session_id === session ? Math.min(cursor.items, items.length) : 0;
          const texts = items
            .slice(from)
            .map(assistantText)
            .filter((t): t is string => t !== undefined && t.trim() !== '');
          const next = { session_id: session, items: items.length };
          if (target.kind === 'remote') target.remotes.setCursor(target.remote.name, next);
          else tree.registry.update(target.record.pod_name, { read_cursor: next });
          const restarted =
            cursor && cursor.session_id !== session
              ? ' (its history was compacted or restarted since the last read)'
              : '';
          if (texts.length === 0) return { summary: `pod \`${name}\` is ${status}; no new assistant text${restarted}` };
          return {
            summary: `pod \`${name}\` is ${status}: ${texts.length} new assistant message${texts.length === 1 ? '' : 's'}${restarted}`,
            content: texts.join('\n\n'),
          };
        }),
    }));
  },
});

function assistantText(item: unknown): string | undefined {
  const m = item as { type?: unknown; role?: unknown; content?: unknown };
  if (m?.type !== 'message' || m.role !== 'assistant' || !Array.isArray(m.content)) return undefined;
  return m.content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('');
}
