import fs from 'node:fs/promises';
import path from 'node:path';
import { definePlugin, openRegularFile, type Resolution } from 'yoi';
import { TicketRef } from './ticketRef.js';
import { TicketsConfigSchema, type TicketsConfig } from './ticketsConfig.js';

export const TICKETS = 'acme:tickets';

/** Reads at most `maxBytes` of the ticket at canonical path `file`, opened verified. */
async function readTicket(file: string, id: string, { maxBytes }: TicketsConfig): Promise<Resolution> {
  const opened = await openRegularFile(file);
  if (opened.kind === 'missing') return { type: 'unresolved', reason: `no ticket ${id}`, ref: id };
  if (opened.kind !== 'file') return { type: 'unresolved', reason: `ticket ${id} is not a regular file`, ref: id };
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes, opened.stats.size));
    const { bytesRead } = await opened.handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    if (opened.stats.size <= maxBytes) return { type: 'context', label: `Ticket: ${id}`, text };
    return { type: 'context', label: `Ticket: ${id}`, text, warning: `ticket ${id} was cut to ${maxBytes} of ${opened.stats.size} bytes` };
  } finally {
    await opened.handle.close();
  }
}

/**
 * Resolves `ticket_ref` segments to the ticket's text (`<dir>/<ID>.md`, read inside the pod's
 * scope) as a `Ticket: ID` context item, and completes `!T-…` from the ids in that folder.
 */
export const tickets = definePlugin({
  name: TICKETS,
  config: { key: 'tickets', schema: TicketsConfigSchema },
  apply(api) {
    const config = api.config;
    const ID = new RegExp(`^${config.prefix}-[1-9][0-9]{0,8}$`);
    const kind = api.segmentKind(TicketRef);

    kind.resolve(async ({ id }, ctx) => {
      // The id becomes a file name: only the one shape is accepted, so it cannot name another path.
      if (!ID.test(id)) return { type: 'unresolved', reason: `not a ticket id (they look like ${config.prefix}-12)`, ref: id.slice(0, 64) };
      if (ctx.signal.aborted) return { type: 'unresolved', reason: 'cancelled', ref: id };
      const check = ctx.services.scope.check(path.resolve(ctx.projectDir, config.dir, `${id}.md`), 'read');
      if (!check.ok) return { type: 'unresolved', reason: "not readable: outside the pod's scope", ref: id };
      try {
        return await readTicket(check.path, id, config);
      } catch (error) {
        return { type: 'unresolved', reason: `ticket ${id} could not be read: ${(error as Error).message}`, ref: id };
      }
    });

    kind.complete(async (items, ctx) => {
      const check = ctx.services.scope.check(path.resolve(ctx.projectDir, config.dir), 'read');
      if (!check.ok) return items;
      const names = await fs.readdir(check.path).catch(() => [] as string[]);
      const ids = names
        .map((name) => name.replace(/\.md$/, ''))
        .filter((id) => ID.test(id) && id.startsWith(ctx.prefix))
        .sort((a, b) => Number(a.slice(config.prefix.length + 1)) - Number(b.slice(config.prefix.length + 1)));
      return [...items, ...ids.slice(0, ctx.limit)];
    });
  },
});
