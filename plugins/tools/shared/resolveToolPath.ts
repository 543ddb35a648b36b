import path from 'node:path';
import { type ToolContext, ToolRefusal } from '../../../core/api.js';

/**
 * Resolves a path the model gave (absolute, or relative to the pod's cwd) and checks it against
 * the pod's scope. Returns the canonical path (symlinks resolved) to open: the path checked is
 * the path used, so a link inside scope that leads outside is refused.
 */
export function resolveToolPath(ctx: ToolContext, given: string, need: 'read' | 'write'): string {
  if (given.includes('\0')) throw new ToolRefusal('the path contains a NUL byte');
  const absolute = path.resolve(ctx.cwd, given);
  const check = ctx.services.scope.check(absolute, need);
  if (!check.ok) throw new ToolRefusal(`cannot ${need} ${absolute}: ${check.reason}`);
  return check.path;
}
