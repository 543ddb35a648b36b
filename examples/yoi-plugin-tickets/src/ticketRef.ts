import { defineSegmentKind, z } from 'yoi';

/**
 * The kind this plugin adds: `{"kind":"ticket_ref","id":"T-12"}`, typed `!T-12` in `yoi attach`.
 * The pod validates every ticket_ref against the schema before the resolver sees it.
 */
export const TicketRef = defineSegmentKind({
  kind: 'ticket_ref',
  schema: z.object({ id: z.string().min(1).max(64) }),
  sigil: '!',
  field: 'id',
  description: "a ticket from the project's tickets folder",
});
