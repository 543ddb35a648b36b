export { Scope, type ScopeCheck, type ScopeConfigInput, type ScopeLock } from './Scope.js';
export { canonicalPath } from './canonicalPath.js';
export { type ProtectedPath, type ProtectedPathInput } from './ProtectedPath.js';
export { descriptorPath, descriptorPathSync, HAS_PROC_FD } from './descriptorPath.js';
export { lstatListed } from './lstatListed.js';
export { describeSpecial, openRegularFile, type OpenedFile } from './openRegularFile.js';
export { isOpenedAt, pathChanged, PinnedDir } from './PinnedDir.js';
export { PinnedDirSync } from './PinnedDirSync.js';
export { isWithin, ruleMatches } from './ruleMatches.js';
export {
  PERMISSION_RANK,
  PermissionSchema,
  ResolvedRuleSchema,
  ScopeRuleInputSchema,
  type Permission,
  type ResolvedRule,
  type ScopeRuleInput,
} from './ScopeRule.js';
