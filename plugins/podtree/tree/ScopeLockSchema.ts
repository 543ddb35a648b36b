import { z } from 'zod';

/** `read`, or `write` (which includes read). */
const PermissionSchema = z.enum(['read', 'write']);

/** A rule in `scope.lock` and `spawned_pods.json`: canonical absolute target, explicit recursion. */
export const LockRuleSchema = z.object({
  target: z.string().min(1),
  permission: PermissionSchema,
  recursive: z.boolean().default(true),
});
export type LockRule = z.infer<typeof LockRuleSchema>;

/**
 * One pod's allocation (the original's format, plus `scope_deny` and `origin`, both optional
 * on read so a file written by the original still parses).
 */
export const AllocationSchema = z
  .object({
    pod_name: z.string().min(1),
    /** The pod's pid; while a child starts, its spawner's pid holds the reservation. */
    pid: z.int(),
    socket: z.string(),
    scope_allow: z.array(LockRuleSchema),
    /** The pod that delegated this scope, `null` for a top-level pod. */
    delegated_from: z.string().nullable().default(null),
    /** Deny rules inherited from the spawner: the child's scope is `scope_allow` minus these. */
    scope_deny: z.array(LockRuleSchema).default([]),
    /**
     * `delegated` allocations are exclusive write regions (another delegation may not overlap
     * them); `started` ones belong to user-started top-level pods, which may share a project.
     * Kept when a top-level spawner goes away and its children are reparented to nobody.
     */
    origin: z.enum(['started', 'delegated']).optional(),
  })
  .transform((a) => ({
    ...a,
    origin: a.origin ?? (a.delegated_from === null ? ('started' as const) : ('delegated' as const)),
  }));
export type Allocation = z.output<typeof AllocationSchema>;

/** The whole `<runtime base>/scope.lock` file (an empty file is an empty table). */
export const ScopeLockTableSchema = z.object({ allocations: z.array(AllocationSchema).default([]) });
export type ScopeLockTable = z.output<typeof ScopeLockTableSchema>;
