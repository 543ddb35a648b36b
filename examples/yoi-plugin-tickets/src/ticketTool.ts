import { definePlugin, defineTool, ToolRefusal, z } from 'yoi';
import { TicketStoreKey } from './ticketStore.js';

export const TICKET_TOOL = 'acme:ticket-tool';

/** The `ReadTicket` tool: the model reads a ticket it found mentioned, through the store `acme:tickets` provides. */
export const ticketTool = definePlugin({
  name: TICKET_TOOL,
  apply(api) {
    const store = api.use(TicketStoreKey); // the pod refuses to start without acme:tickets

    const tool = defineTool({
      name: 'ReadTicket',
      description: "Reads one of this project's tickets by its id (like T-12).",
      input: z.object({ id: z.string().max(64).describe('the ticket id') }),
      async execute({ id }, ctx) {
        const ticket = await store().read(id, ctx);
        if (!ticket.ok) throw new ToolRefusal(ticket.reason);
        return { summary: `read ticket ${id}${ticket.cut ? ` (${ticket.cut})` : ''}`, content: ticket.text };
      },
    });
    api.hooks.tools.for(tool.name).tap(api.name, () => tool);
  },
});
