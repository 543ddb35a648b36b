import { z } from 'zod';
import { PodTreeService } from './podTreePlugin.js';
import { POD_SOCKET_TIMEOUT_MS } from './shared/connectToPod.js';
import { formatRules } from './shared/formatRules.js';
import { RemotePodsService } from './shared/RemotePods.js';
import { PodRemotesService } from './remote/PodRemotes.js';
import { remotePodLines } from './remote/remotePodLines.js';
import { findAllocation } from './tree/allocationTable.js';
import { definePlugin, isSocketLive, refusalsAsResults, type Tool } from '../../core/api.js';

export const LIST_PODS = 'yoi:list-pods';

/**
 * `ListPods`: the health check of the pods this pod manages (the polling fallback when a
 * report was lost). Pods that no longer answer and whose process is gone have their scope
 * reclaimed and their records removed (the original kept the records).
 */
export const listPodsTool = definePlugin({
  name: LIST_PODS,
  apply(api) {
    const podTree = api.use(PodTreeService);
    const remotePods = api.useOptional(RemotePodsService);
    const podRemotes = api.useOptional(PodRemotesService);
    api.hooks.tools.for('ListPods').tap(LIST_PODS, (): Tool<Record<string, never>> => ({
      name: 'ListPods',
      description:
        'Lists the pods you manage, whether each still runs, and the scope each holds; cleans up after pods that died.',
      input: z.object({}),
      execute: (_input, ctx) =>
        refusalsAsResults(async () => {
          const tree = podTree();
          // Always: a reservation whose spawner died before recording the child has no record to fail.
          await tree.reclaimStale();
          const records = [...tree.registry.list()];
          const remotes = podRemotes();
          const remoteLines = remotes && remotes.list().length > 0 ? remotePodLines(remotes, ctx.podName) : undefined;
          if (records.length === 0 && !remoteLines) return { summary: 'no spawned pods' };
          // A pod on another host is alive while its cluster registration is (its host reclaims its scope).
          const remote = (r: (typeof records)[number]) =>
            remotePods()?.isRegistered(r.pod_name) ?? Promise.resolve(undefined);
          const alive = await Promise.all(
            records.map((r) => (r.host ? remote(r) : isSocketLive(r.socket_path, POD_SOCKET_TIMEOUT_MS))),
          );
          if (alive.some((a, i) => !a && !records[i].host)) await tree.reclaimStale();
          const table = await tree.table();
          const removed: string[] = [];
          const lines = records.map((r, i) => {
            // A remote child with no socket yet is being placed (recorded before its host answers).
            const placing = r.host !== undefined && r.socket_path === '' && !alive[i];
            const gone = r.host ? alive[i] === false : !findAllocation(table, r.pod_name);
            const state = placing ? 'starting' : alive[i] ? 'alive' : gone ? 'stopped' : 'unreachable';
            if (state === 'stopped') {
              tree.registry.remove(r.pod_name);
              removed.push(r.pod_name);
            }
            return `${r.pod_name} [${state}]${r.host ? ` on ${r.host}` : ''} scope=${formatRules(r.scope_delegated)}${r.via ? ` (spawned by ${r.via})` : ''}`;
          });
          if (removed.length > 0) lines.push(`Stopped pods removed, their scope reclaimed: ${removed.join(', ')}`);
          const remoteOut = (await remoteLines) ?? [];
          lines.push(...remoteOut);
          const n = records.length;
          const remoteNote = remoteOut.length
            ? `, ${remoteOut.length} remote pod${remoteOut.length === 1 ? '' : 's'} configured`
            : '';
          return {
            summary: `${n} pod${n === 1 ? '' : 's'} known${removed.length ? `, ${removed.length} stopped` : ''}${remoteNote}`,
            content: lines.join('\n'),
          };
        }),
    }));
  },
});
