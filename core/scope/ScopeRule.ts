import { z } from 'zod';

/** Access levels, ordered: `read < write` (write includes read). */
export const PermissionSchema = z.enum(['read', 'write']);
export type Permission = z.infer<typeof PermissionSchema>;

/** Rank of a permission in the lattice, so levels compare with `<`. */
export const PERMISSION_RANK: Readonly<Record<Permission, number>> = Object.freeze({ read: 1, write: 2 });

/**
 * A scope rule as handed to {@link Scope}: the config's rule, optionally with `path`, its
 * target already made absolute (the resolved config provides it). Without `path`, a relative
 * `target` is resolved against the scope's base directory.
 */
export const ScopeRuleInputSchema = z.object({
  target: z.string().min(1),
  permission: PermissionSchema,
  /** Covers everything below `target` (default) or only `target` and its direct children. */
  recursive: z.boolean().optional(),
  /** `target`, absolute; wins over `target` when present. */
  path: z.string().min(1).optional(),
});
export type ScopeRuleInput = z.input<typeof ScopeRuleInputSchema>;

/** A rule as the scope holds it: canonical absolute target, explicit recursion. */
export const ResolvedRuleSchema = z.object({
  target: z.string(),
  permission: PermissionSchema,
  recursive: z.boolean(),
});
export type ResolvedRule = z.infer<typeof ResolvedRuleSchema>;
