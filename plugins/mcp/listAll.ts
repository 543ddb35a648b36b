/** Most items kept of one list (tools, resources, templates, prompts) of one server. */
export const MAX_LIST_ITEMS = 1000;
const MAX_PAGES = 50;

/**
 * Follows `nextCursor` pages of an MCP list request, bounded in pages and items (a server that
 * keeps handing out cursors cannot make the pod loop or grow without end).
 */
export async function listAll<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES && items.length < MAX_LIST_ITEMS; pages++) {
    const { items: got, next } = await page(cursor);
    items.push(...got.slice(0, MAX_LIST_ITEMS - items.length));
    if (next === undefined || next === cursor) break;
    cursor = next;
  }
  return items;
}
