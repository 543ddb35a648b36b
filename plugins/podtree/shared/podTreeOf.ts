import type { PodTree } from '../../../core/podtree/PodTree.js';
import type { ToolContext } from '../../../core/tools/Tool.js';
import { ToolRefusal } from '../../tools/shared/ToolRefusal.js';

/** The pod tree of the pod running a tool; a host without one (a bare test host) refuses. */
export function podTreeOf(ctx: ToolContext): PodTree {
  const tree = ctx.services.podTree;
  if (!tree) throw new ToolRefusal('this pod has no pod tree: pod tools only work in a running pod');
  return tree;
}
