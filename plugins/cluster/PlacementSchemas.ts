import { z } from 'zod';
import { LockRuleSchema } from '../podtree/tree/ScopeLockSchema.js';
import { PodNameSchema } from '../../core/api.js';

/** `<prefix>host.<host>.spawn` request: start pod `name` for `parent` (SpawnPod with `host`). */
export const SpawnRequestSchema = z.strictObject({
  name: PodNameSchema,
  parent: PodNameSchema,
  task: z.string().min(1),
  instruction: z.string().optional(),
  /** Canonical rules on the parent's machine (rebased onto this host's project directory). */
  scope: z.array(LockRuleSchema).min(1).max(64),
  /** The child's report secret (the host hands it over in the child's environment). */
  secret: z.string().regex(/^[0-9a-f]{64}$/),
  /** The parent's working directory and project directory. */
  cwd: z.string().min(1),
  project_dir: z.string().min(1),
});
export type SpawnRequest = z.infer<typeof SpawnRequestSchema>;

export const SpawnReplySchema = z.union([
  z.object({ ok: z.literal(true), host: z.string(), socket: z.string(), pid: z.int() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type SpawnReply = z.infer<typeof SpawnReplySchema>;
