import { definePlugin } from 'yoi';
import { TicketRef } from './ticketRef.js';
import { TicketStoreKey, ticketStore } from './ticketStore.js';
import { TicketsConfigSchema } from './ticketsConfig.js';

export const TICKETS = 'acme:tickets';

/**
 * Resolves `ticket_ref` segments to the ticket's text (`<dir>/<ID>.md`, read inside the pod's
 * scope) as a `Ticket: ID` context item, completes `!T-…` from the ids in that folder, and
 * provides the store to other plugins.
 */
export const tickets = definePlugin({
  name: TICKETS,
  config: { key: 'tickets', schema: TicketsConfigSchema },
  apply(api) {
    const store = ticketStore(api.config);
    api.provide(TicketStoreKey, store);

    const kind = api.segmentKind(TicketRef);
    kind.resolve(async (segment, ctx) => {
      // Typed and validated by the pod; still checked, since anyone may call the hook directly.
      const id: unknown = segment.id;
      if (typeof id !== 'string')
        return { type: 'unresolved', reason: 'malformed ticket_ref segment: `id` is not a string' };
      if (ctx.signal.aborted) return { type: 'unresolved', reason: 'cancelled', ref: id.slice(0, 64) };
      const ticket = await store.read(id, ctx);
      if (!ticket.ok) return { type: 'unresolved', reason: ticket.reason, ref: id.slice(0, 64) };
      const label = `Ticket: ${id}`;
      return ticket.cut
        ? { type: 'context', label, text: ticket.text, warning: `ticket ${id} was ${ticket.cut}` }
        : { type: 'context', label, text: ticket.text };
    });
    kind.complete(async (items, ctx) => [...items, ...(await store.list(ctx.prefix, ctx)).slice(0, ctx.limit)]);
  },
});
