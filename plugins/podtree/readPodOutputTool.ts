import { z } from 'zod';
import { PodTreeService } from './podTreePlugin.js';
import { connectToPod } from './shared/connectToPod.js';
import { definePlugin, PodNameSchema, refusalsAsResults, type Tool, ToolRefusal } from '../../core/api.js';

export const READ_POD_OUTPUT = 'yoi:read-pod-output';

export const ReadPodOutputInputSchema = z.object({ name: PodNameSchema.describe('The pod to read.') });

/**
 * `ReadPodOutput`: the assistant text a managed pod wrote since the last read. The cursor is an
 * item count within one session: when the pod's session changed (a compaction, a restart), its
 * whole current history is read again.
 */
export const readPodOutputTool = definePlugin({
  name: READ_POD_OUTPUT,
  apply(api) {
    const podTree = api.use(PodTreeService);
    api.hooks.tools.for('ReadPodOutput').tap(READ_POD_OUTPUT, (): Tool<z.infer<typeof ReadPodOutputInputSchema>> => ({
      name: 'ReadPodOutput',
      description: 'Returns what a pod you manage has answered since you last read it, and whether it is idle or running.',
      input: ReadPodOutputInputSchema,
      execute: (input, ctx) => refusalsAsResults(async () => {
        const tree = podTree();
        const { name } = input;
        const record = tree.registry.get(name);
        if (!record) throw new ToolRefusal(`no spawned pod named \`${name}\``);
        let client;
        try {
          client = await connectToPod(record.socket_path, ctx.podName);
        } catch {
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
        const status = client.welcome?.status ?? (client.protocol === 1 ? 'reachable (a v1 pod, which does not report its state)' : 'running');
        const session = client.welcome?.session_id ?? '';
        const cursor = record.read_cursor;
        const from = cursor && cursor.session_id === session ? Math.min(cursor.items, items.length) : 0;
        const texts = items.slice(from).map(assistantText).filter((t): t is string => t !== undefined && t.trim() !== '');
        tree.registry.update(name, { read_cursor: { session_id: session, items: items.length } });
        const restarted = cursor && cursor.session_id !== session ? ' (its history was compacted or restarted since the last read)' : '';
        if (texts.length === 0) return { summary: `pod \`${name}\` is ${status}; no new assistant text${restarted}` };
        return { summary: `pod \`${name}\` is ${status}: ${texts.length} new assistant message${texts.length === 1 ? '' : 's'}${restarted}`, content: texts.join('\n\n') };
      }),
    }));
  },
});

function assistantText(item: unknown): string | undefined {
  const m = item as { type?: unknown; role?: unknown; content?: unknown };
  if (m?.type !== 'message' || m.role !== 'assistant' || !Array.isArray(m.content)) return undefined;
  return m.content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('');
}
