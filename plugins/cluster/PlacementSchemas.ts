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

/** Methods a parent may send to its pod on another host. */
export const REMOTE_METHODS = ['run', 'get_history', 'shutdown', 'cancel', 'pause', 'resume', 'notify'] as const;

/** The signed part of a command: who sends what to whom, once (`id`), recently (`at`). */
export const CommandBodySchema = z.strictObject({
  pod: PodNameSchema,
  parent: PodNameSchema,
  id: z.string().min(16).max(64),
  at: z.int(),
  method: z.object({ method: z.enum(REMOTE_METHODS), params: z.unknown().optional() }),
});
export type CommandBody = z.infer<typeof CommandBodySchema>;

/** `<prefix>host.<host>.command` request: the body as sent, and its HMAC under the pod's secret. */
export const CommandRequestSchema = z.strictObject({
  body: z.string().max(1024 * 1024),
  sig: z.string().regex(/^[0-9a-f]{64}$/),
});

export const CommandReplySchema = z.union([
  z.object({
    ok: z.literal(true),
    reply: z.object({ event: z.string() }).passthrough(),
    status: z.string().optional(),
    session_id: z.string().optional(),
  }),
  z.object({ ok: z.literal(false), code: z.string(), message: z.string() }),
]);
export type CommandReply = z.infer<typeof CommandReplySchema>;
