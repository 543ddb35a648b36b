import type { LockRule } from '../tree/ScopeLockSchema.js';

/** `write:/src, read:/docs [non-recursive]`, as the original's tool outputs wrote scopes. */
export function formatRules(rules: readonly LockRule[]): string {
  if (rules.length === 0) return 'none';
  return rules.map((r) => `${r.permission}:${r.target}${r.recursive ? '' : ' [non-recursive]'}`).join(', ');
}
