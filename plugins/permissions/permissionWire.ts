import { z } from 'zod';
import { DecisionSchema } from './permissionsConfig.js';

/** The wire names of the permission protocol (ARCHITECTURE §13). */
export const PERMISSION_REQUEST = 'permission_request';
export const PERMISSION_RESOLVED = 'permission_resolved';
export const PERMISSION_REPLY = 'permission_reply';
export const PERMISSION_LIST = 'permission_list';

/** Ask ids: short, typed by people (`yoi approve 3f9a1c2e`). */
export const AskIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'not a permission request id');

/** `permission_request`: a tool call waits for a decision. */
export const PermissionRequestSchema = z.object({
  id: AskIdSchema,
  tool: z.string(),
  /** The call's arguments (long strings clipped, see `args_clipped`). */
  args: z.unknown(),
  /** One line: what the call does. */
  summary: z.string(),
  options: z.array(DecisionSchema).min(1),
  /** Milliseconds left until the default applies, when this event was sent. */
  deadline_ms: z.int().min(0),
  default: DecisionSchema,
  /** The pod whose tool call waits (this pod, or a child or deeper descendant). */
  pod: z.string(),
  /** The deadline as a Unix time in milliseconds. */
  expires_at: z.int().min(0),
  /** True when string arguments were clipped for the event. */
  args_clipped: z.boolean().optional(),
});
export type PermissionRequest = z.infer<typeof PermissionRequestSchema>;

/** Who resolved an ask besides a client: the deadline, a cancel or pause of the run. */
export const RESOLVERS = ['timeout', 'cancel', 'pause'] as const;

/** `permission_resolved`: the decision that applies, and who made it (a client's name, or one of RESOLVERS). */
export const PermissionResolvedSchema = z.object({
  id: AskIdSchema,
  decision: DecisionSchema,
  by: z.string(),
  pod: z.string(),
  message: z.string().optional(),
});
export type PermissionResolved = z.infer<typeof PermissionResolvedSchema>;

/** Longest rejection message passed to the model. */
export const MAX_MESSAGE_CHARS = 4000;

/** `permission_reply` params. `by` is honoured from pods only (a parent relaying its client's answer). */
export const PermissionReplySchema = z.object({
  id: AskIdSchema,
  decision: DecisionSchema,
  message: z.string().max(MAX_MESSAGE_CHARS).optional(),
  by: z.string().max(200).optional(),
});
export type PermissionReply = z.infer<typeof PermissionReplySchema>;

/** The reply to `permission_list`: the asks pending now. */
export const PermissionListSchema = z.object({ requests: z.array(PermissionRequestSchema) });

/** Pod events a child sends its parent: an ask, and how it was resolved. */
export const AskReportSchema = z.object({
  kind: z.literal(PERMISSION_REQUEST),
  pod_name: z.string(),
  request: PermissionRequestSchema,
});
export const ResolvedReportSchema = z.object({
  kind: z.literal(PERMISSION_RESOLVED),
  pod_name: z.string(),
  resolved: PermissionResolvedSchema,
});
