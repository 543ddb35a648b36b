import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { formatRules } from './shared/formatRules.js';
import { recordChild } from './shared/recordChild.js';
import type { RemotePods } from './shared/RemotePods.js';
import type { SpawnPodInputSchema } from './spawnPodTool.js';
import { coversFully, findAllocation } from './tree/allocationTable.js';
import type { PodTree } from './tree/PodTree.js';
import type { LockRule } from './tree/ScopeLockSchema.js';
import { ruleMatches, type ToolContext, type ToolOutput, ToolRefusal } from '../../core/api.js';

type Input = z.infer<typeof SpawnPodInputSchema> & { host: string };

/**
 * SpawnPod on another host: the delegated rules must lie within this pod's scope (as for a
 * local child); the scope is then reserved in the scope.lock of the host that runs the child
 * (`yoi host` there), which also starts it and gives it its task. The child is recorded with
 * its host before the request; its reports come through JetStream, signed with its secret.
 */
export async function spawnRemote(
  remote: RemotePods,
  tree: PodTree,
  input: Input,
  rules: LockRule[],
  ctx: ToolContext,
): Promise<ToolOutput> {
  const own = findAllocation(await tree.table(), tree.name);
  const denied = ctx.services.scope.denyRules;
  for (const rule of rules) {
    const granted = own?.scope_allow.some((a) => coversFully(a, rule)) ?? false;
    const refused = denied.some(
      (d) => ruleMatches(d, rule.target) && (d.permission === 'read' || rule.permission === 'write'),
    );
    if (!granted || refused)
      throw new ToolRefusal(
        `requested scope \`${rule.target}\` is not within spawner \`${tree.name}\`'s effective scope`,
      );
  }
  const secret = randomBytes(32).toString('hex');
  // Recorded before it is placed, as a local child is before it starts: its first report may
  // come before the host answers, and this pod restarted after a kill mid-placement still knows
  // it (alive once it registers in the cluster; forgotten if it never does, see ClusterNode).
  const record = {
    pod_name: input.name,
    socket_path: '',
    scope_delegated: rules,
    callback_address: tree.socket,
    spawned_at: Date.now(),
    secret,
    host: input.host,
  };
  recordChild(tree, record, 'not placed');
  let placed;
  try {
    placed = await remote.spawn({
      name: input.name,
      host: input.host,
      task: input.task,
      scope: rules,
      secret,
      parent: ctx.podName,
      cwd: ctx.cwd,
      projectDir: ctx.projectDir,
      ...(input.instruction ? { instruction: input.instruction } : {}),
    });
  } catch (e) {
    tree.registry.remove(input.name);
    return {
      summary: `pod \`${input.name}\` was not started on host \`${input.host}\`: ${(e as Error).message}`,
      is_error: true,
    };
  }
  tree.registry.update(input.name, { socket_path: placed.socket, host: placed.host });
  return {
    summary: `spawned pod \`${input.name}\` on host \`${placed.host}\``,
    content: `Delegated scope: ${formatRules(rules)}. The pod is working on its task; you get a notification when it finishes a turn.`,
  };
}
