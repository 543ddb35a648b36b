import { z } from 'zod';

/**
 * What a segment resolver returns (ARCHITECTURE §5): text appended to the user message, a
 * labelled context item added right after it, or a reason it could not be resolved (the pod
 * then puts a placeholder in the model's context and alerts every client).
 */
export const ResolutionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('inline'), text: z.string() }),
  z.object({
    type: z.literal('context'),
    /** Shown to the model as the item's first line, e.g. `[File: src/a.ts]`. */
    label: z.string(),
    text: z.string(),
    /** Optional warning to alert clients with although the segment resolved (e.g. truncation). */
    warning: z.string().optional(),
    /** `system` by default; `instruction` items are system instructions for this run only. */
    role: z.enum(['context', 'instruction']).optional(),
  }),
  z.object({
    type: z.literal('unresolved'),
    reason: z.string(),
    /** What the user referred to (`src/x.ts`, `my-slug`); shown in the placeholder. */
    ref: z.string().optional(),
  }),
]);
export type Resolution = z.infer<typeof ResolutionSchema>;
