import { ToolRefusal, type ToolContext } from '../../../core/api.js';

/** A `{path, key}` entry of `scope.protectedPaths`: one top-level key of a JSON file. */
export interface ProtectedKey {
  readonly path: string;
  readonly key: string;
  readonly what: string;
}

/** The JSON keys the pod's control plane holds (a package.json's `yoi`, where the next config would be). */
export function protectedKeys(ctx: Pick<ToolContext, 'services'>): ProtectedKey[] {
  const listed = (ctx.services.scope as unknown as { protectedPaths?: unknown }).protectedPaths;
  if (!Array.isArray(listed)) return [];
  return (listed as Partial<ProtectedKey>[]).filter(
    (e): e is ProtectedKey => typeof e?.path === 'string' && typeof e.key === 'string',
  );
}

/** The key's value as JSON; `absent` without it (or when the text is no JSON object: it holds no config). */
export function keyValue(bytes: Buffer | undefined, key: string): string {
  if (bytes === undefined) return 'absent';
  try {
    const value = JSON.parse(bytes.toString('utf8')) as unknown;
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return 'absent';
    return JSON.stringify((value as Record<string, unknown>)[key]);
  } catch {
    return 'absent';
  }
}

/** Refuses a write of `file` that would change a protected key (the rest of the file is the project's). */
export function keepProtectedKeys(
  ctx: Pick<ToolContext, 'services'>,
  file: string,
  before: Buffer | undefined,
  after: Buffer,
): void {
  for (const entry of protectedKeys(ctx)) {
    if (entry.path !== file || keyValue(before, entry.key) === keyValue(after, entry.key)) continue;
    throw new ToolRefusal(
      `cannot write ${file}: its \`${entry.key}\` key is part of the pod's control plane (${entry.what}); the pod's tools cannot write it`,
    );
  }
}
