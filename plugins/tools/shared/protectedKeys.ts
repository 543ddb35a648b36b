import { ToolRefusal, protectedKeys, protectedKeyValue, type ToolContext } from '../../../core/api.js';

/** Refuses a write of `file` that would change a protected key (the rest of the file is the project's). */
export function keepProtectedKeys(
  ctx: Pick<ToolContext, 'services'>,
  file: string,
  before: Buffer | undefined,
  after: Buffer,
): void {
  for (const entry of protectedKeys(ctx.services.scope)) {
    if (entry.path !== file || protectedKeyValue(before, entry.key) === protectedKeyValue(after, entry.key)) continue;
    throw new ToolRefusal(
      `cannot write ${file}: its \`${entry.key}\` key is part of the pod's control plane (${entry.what}); the pod's tools cannot write it`,
    );
  }
}
