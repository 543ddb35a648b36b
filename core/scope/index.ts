export { Scope, type ScopeCheck, type ScopeConfigInput, type ScopeLock } from './Scope.js';
export { canonicalPath } from './canonicalPath.js';
export { type ProtectedPath, type ProtectedPathInput } from './ProtectedPath.js';
export { isWithin, ruleMatches } from './ruleMatches.js';
export { scopeOf } from './scopeOf.js';
export {
  PERMISSION_RANK, PermissionSchema, ResolvedRuleSchema, ScopeRuleInputSchema,
  type Permission, type ResolvedRule, type ScopeRuleInput,
} from './ScopeRule.js';
