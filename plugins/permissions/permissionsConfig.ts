import { z } from 'zod';
import { pathGlobProblem } from './globs.js';

/** What a rule (or the default) does with a call. */
export const ActionSchema = z.enum(['allow', 'ask', 'deny']);
export type Action = z.infer<typeof ActionSchema>;

/** The answers to an ask. */
export const DecisionSchema = z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
export type Decision = z.infer<typeof DecisionSchema>;
export const DECISIONS: readonly Decision[] = DecisionSchema.options;

/** What applies when nobody answers an ask in time (an `always` needs a person). */
export const DeadlineDecisionSchema = z.enum(['reject_once', 'allow_once']);

/** The longest deadline an ask may have (one day). */
export const MAX_DEADLINE_MS = 86_400_000;
export const DEFAULT_DEADLINE_MS = 600_000;

/**
 * One rule: `tool` is the tool's name or a glob over names (`mcp__github__*`, `*`); `match` a
 * glob over the call's main argument (see callSubject.ts), `exact` the main argument itself
 * (what `allow_always` saves); first match wins.
 */
export const RuleSchema = z
  .strictObject({
    tool: z.string().min(1).max(200),
    match: z.string().min(1).max(100_000).optional(),
    exact: z.string().min(1).max(100_000).optional(),
    action: ActionSchema,
  })
  .check((ctx) => {
    if (ctx.value.match !== undefined && ctx.value.exact !== undefined) {
      ctx.issues.push({
        code: 'custom',
        message: 'give `match` or `exact`, not both',
        input: ctx.value,
        path: ['exact'],
      });
    }
    // Command globs match in linear time; the others go through picomatch (see globs.ts).
    const problem =
      ctx.value.match !== undefined && ctx.value.tool !== 'Bash' ? pathGlobProblem(ctx.value.match) : undefined;
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value.match, path: ['match'] });
  });
export type Rule = z.infer<typeof RuleSchema>;

/**
 * The rules that follow the configured ones when the config sets no `default`: every tool is
 * allowed (the file tools stay inside the scope), except Bash, which asks.
 */
export const BUILTIN_RULES: readonly Rule[] = Object.freeze([{ tool: 'Bash', action: 'ask' as const }]);

/** The `permissions` section as written. */
export const PermissionsSectionSchema = z.strictObject({
  /** What calls no rule matches get. Omitted: `allow`, after the built-in rules (Bash asks). */
  default: ActionSchema.optional(),
  rules: z.array(RuleSchema).max(1000).default([]),
  /** How long an ask waits for an answer. */
  deadlineMs: z.int().min(1).max(MAX_DEADLINE_MS).default(DEFAULT_DEADLINE_MS),
  /** The decision an ask gets at its deadline. */
  onDeadline: DeadlineDecisionSchema.default('reject_once'),
});
export type PermissionsSection = z.input<typeof PermissionsSectionSchema>;

/** The policy in force: the configured rules, then (without a configured `default`) the built-ins. */
export interface Policy {
  readonly default: Action;
  readonly rules: readonly Rule[];
  /** Tried after `rules`: the built-in rules, or none when the config sets `default`. */
  readonly builtin: readonly Rule[];
  readonly deadlineMs: number;
  readonly onDeadline: z.infer<typeof DeadlineDecisionSchema>;
}

/** The section parsed into the policy it means (an absent section is the built-in policy). */
export const PolicySchema = PermissionsSectionSchema.optional().transform((section): Policy => {
  const s = section ?? PermissionsSectionSchema.parse({});
  return Object.freeze({
    default: s.default ?? 'allow',
    rules: Object.freeze(s.rules),
    builtin: s.default === undefined ? BUILTIN_RULES : [],
    deadlineMs: s.deadlineMs,
    onDeadline: s.onDeadline,
  });
});

declare module '../../core/config/YoiConfigSchema.js' {
  interface PluginConfigSections {
    /** The permission policy (`yoi:permissions`): rules, default, how long an ask waits. */
    permissions?: PermissionsSection;
  }
}
