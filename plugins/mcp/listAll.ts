/** Most items kept of one list (tools, resources, templates, prompts) of one server. */
export const MAX_LIST_ITEMS = 1000;
const MAX_PAGES = 50;
/**
 * Most characters of the server's JSON one listing of one list reads into what it keeps: pages
 * are up to 10 MiB each, and 50 pages of one 9.5 MiB item made one pod hold 2 GB.
 */
export const MAX_LIST_CHARS = 8 * 1024 * 1024;

export interface Listed<K> {
  items: K[];
  /** Why the list stops short of what the server offers, when it does. */
  cut?: string;
}

/**
 * Follows `nextCursor` pages of an MCP list request, bounded in pages, items and the characters
 * of the items' JSON (a server that keeps handing out cursors, or huge items, cannot make the pod
 * loop or grow without end). Keeps `copy(item)` of each: what the pod needs of it, not the
 * server's message.
 */
export async function listAll<T, K = T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>,
  copy: (item: T) => K = (item) => item as unknown as K,
): Promise<Listed<K>> {
  const items: K[] = [];
  let chars = 0;
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const { items: got, next } = await page(cursor);
    for (const item of got) {
      if (items.length === MAX_LIST_ITEMS) return { items, cut: `at ${MAX_LIST_ITEMS} items` };
      chars += JSON.stringify(item)?.length ?? 0;
      if (chars > MAX_LIST_CHARS) return { items, cut: `at ${MAX_LIST_CHARS / 1048576} MiB of JSON` };
      items.push(copy(item));
    }
    if (next === undefined || next === cursor) return { items };
    if (items.length === MAX_LIST_ITEMS) return { items, cut: `at ${MAX_LIST_ITEMS} items` };
    if (pages === MAX_PAGES) return { items, cut: `at ${MAX_PAGES} pages` };
    cursor = next;
  }
}
