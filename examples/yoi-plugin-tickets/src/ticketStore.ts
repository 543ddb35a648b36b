import fs from 'node:fs/promises';
import path from 'node:path';
import { defineService, openRegularFile, type Scope } from 'yoi';
import type { TicketsConfig } from './ticketsConfig.js';

/** Where a ticket is looked up: a hook's or a tool's context has both. */
export interface TicketPlace {
  readonly projectDir: string;
  readonly services: { readonly scope: Scope };
}

/** A ticket's text, or why there is none. `cut` says how much a long ticket lost. */
export type TicketText = { ok: true; text: string; cut?: string } | { ok: false; reason: string };

/** Reads tickets from `<dir>/<ID>.md`: what the resolver and the ReadTicket tool share. */
export interface TicketStore {
  /** What ids look like, for messages: `T-12`. */
  readonly example: string;
  read(id: string, place: TicketPlace): Promise<TicketText>;
  /** The ids in the folder starting with `prefix`, in number order. */
  list(prefix: string, place: TicketPlace): Promise<string[]>;
}

/** The service key other plugins use the store by (`api.use(TicketStoreKey)`). */
export const TicketStoreKey = defineService<TicketStore>('acme:tickets.store', "reads the project's tickets");

async function readOpened(file: string, id: string, maxBytes: number): Promise<TicketText> {
  const opened = await openRegularFile(file);
  if (opened.kind === 'missing') return { ok: false, reason: `no ticket ${id}` };
  if (opened.kind !== 'file') return { ok: false, reason: `ticket ${id} is not a regular file` };
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes, opened.stats.size));
    const { bytesRead } = await opened.handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    return opened.stats.size <= maxBytes
      ? { ok: true, text }
      : { ok: true, text, cut: `cut to ${maxBytes} of ${opened.stats.size} bytes` };
  } finally {
    await opened.handle.close();
  }
}

export function ticketStore({ dir, prefix, maxBytes }: TicketsConfig): TicketStore {
  // The id becomes a file name: only this one shape is accepted, so it cannot name another path.
  const ID = new RegExp(`^${prefix}-[1-9][0-9]{0,8}$`);
  const example = `${prefix}-12`;
  const number = (id: string) => Number(id.slice(prefix.length + 1));
  return {
    example,
    async read(id, place) {
      if (!ID.test(id)) return { ok: false, reason: `not a ticket id (they look like ${example})` };
      // Checked against the pod's scope, then opened verified: the file read is the one checked.
      const check = place.services.scope.check(path.resolve(place.projectDir, dir, `${id}.md`), 'read');
      if (!check.ok) return { ok: false, reason: "not readable: outside the pod's scope" };
      try {
        return await readOpened(check.path, id, maxBytes);
      } catch (error) {
        return { ok: false, reason: `ticket ${id} could not be read: ${(error as Error).message}` };
      }
    },
    async list(start, place) {
      const check = place.services.scope.check(path.resolve(place.projectDir, dir), 'read');
      if (!check.ok) return [];
      const names = await fs.readdir(check.path).catch(() => [] as string[]);
      const ids = names.map((name) => name.replace(/\.md$/, '')).filter((id) => ID.test(id) && id.startsWith(start));
      return ids.sort((a, b) => number(a) - number(b));
    },
  };
}
