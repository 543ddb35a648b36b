import path from 'node:path';
import type { ResolvedRule } from './ScopeRule.js';

/** True when `child` is `parent` or below it, compared component-wise (`/src` ⊄ `/srcx`). */
export function isWithin(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

/**
 * Whether a rule covers a canonical path: a recursive rule covers its target and everything
 * below; a non-recursive one its target and the target's direct children.
 */
export function ruleMatches(rule: ResolvedRule, canonical: string): boolean {
  if (rule.recursive) return isWithin(canonical, rule.target);
  return canonical === rule.target || path.dirname(canonical) === rule.target;
}
