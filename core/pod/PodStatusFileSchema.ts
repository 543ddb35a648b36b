import path from 'node:path';
import { z } from 'zod';
import { PodStatusSchema } from '../protocol/schemas/enums.js';

/** A field of status.json that is missing or malformed reads as unknown (undefined), not as a failure. */
const tolerant = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/**
 * `status.json` as read back: field by field, so one damaged field (`"state": 5`, `"socket": ""`)
 * leaves that field unknown and the rest of the pod's listing intact. Not an object: no status.
 */
export const PodStatusFileSchema = z.object({
  pod_name: tolerant(z.string()),
  state: tolerant(PodStatusSchema),
  session_id: tolerant(z.string()),
  pid: tolerant(z.int().positive()),
  // A relative path would be connected to from the caller's directory: not the pod's.
  socket: tolerant(z.string().refine((s) => path.isAbsolute(s))),
  started_at: tolerant(z.number()),
  parent_socket: tolerant(z.string().refine((s) => path.isAbsolute(s))),
});
