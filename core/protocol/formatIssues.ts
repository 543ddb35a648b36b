import type { z } from 'zod';

/** `params.input[1].id` style path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/** One readable line for a zod error: `input[1].id: expected u32, got a float (7)`. */
export function formatIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): string {
  const issue = error.issues[0];
  const path = formatPath([...prefix, ...issue.path]);
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${path ? `${path}: ` : ''}${issue.message}${more}`;
}
