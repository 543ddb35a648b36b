import { canonicalPath } from '../core/api.js';
import type { ResolvedConfig } from '../core/config/resolveConfig.js';
import { PERMISSIONS } from '../plugins/permissions/permissionsPlugin.js';
import { SavedRules, permissionsFile, type SavedRule } from '../plugins/permissions/SavedRules.js';

/** The permission policy as it applies: the config's section (parsed), and the rules saved by `allow_always` / `reject_always`. */
export interface EffectivePolicy {
  readonly [key: string]: unknown;
  readonly saved: readonly SavedRule[];
  readonly savedFile: string;
  /** Why the saved rules are ignored (an unusable file). */
  readonly savedProblem?: string;
}

/**
 * For `yoi config` and `yoi plugins`: the policy of the project's pods, or undefined when the
 * permission plugin is not applied. Saved rules come first when a call is checked (except
 * where the config denies); see CONTRIBUTING.
 */
export function effectivePolicy(config: ResolvedConfig): EffectivePolicy | undefined {
  if (!config.plugins.some((p) => p.name === PERMISSIONS)) return undefined;
  const section = (config.sections.get(PERMISSIONS) ?? {}) as Record<string, unknown>;
  const saved = new SavedRules(permissionsFile(canonicalPath(config.projectDir) ?? config.projectDir));
  const rules = saved.rules();
  return { ...section, saved: rules, savedFile: saved.file, ...(saved.problem ? { savedProblem: saved.problem } : {}) };
}

/** One line of `yoi plugins`: `policy: default allow · 2 rules · built-in Bash ask · 1 saved rule (...)`. */
export function policyLine(policy: EffectivePolicy): string {
  const rules = (policy.rules as unknown[] | undefined) ?? [];
  const builtin = ((policy.builtin as { tool: string; action: string }[] | undefined) ?? []).map(
    (r) => `${r.tool} ${r.action}`,
  );
  const parts = [
    `default ${String(policy.default)}`,
    `${rules.length} ${rules.length === 1 ? 'rule' : 'rules'}`,
    ...(builtin.length > 0 ? [`built-in ${builtin.join(', ')}`] : []),
    `${policy.saved.length} saved ${policy.saved.length === 1 ? 'rule' : 'rules'} (${policy.savedFile}${policy.savedProblem ? `: ignored, ${policy.savedProblem}` : ''})`,
    `asks wait ${Math.round(Number(policy.deadlineMs) / 1000)}s, then ${String(policy.onDeadline)}`,
  ];
  return `policy: ${parts.join(' · ')}`;
}
