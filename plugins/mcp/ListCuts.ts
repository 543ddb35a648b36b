import type { Listed } from './listAll.js';

/**
 * Where each list of one server was last cut short (listAll's bounds), so that a server listing
 * again is said once, not at every listing.
 */
export class ListCuts {
  private readonly cuts = new Map<string, string>();

  /**
   * The items of a listing of `list`; for a list cut short, the note to keep as the server's last
   * error, and `alert` is called with it when the cut is new.
   */
  kept<K>(list: string, listed: Listed<K>, alert: (note: string) => void): { items: K[]; note?: string } {
    if (!listed.cut) {
      this.cuts.delete(list);
      return { items: listed.items };
    }
    const note = `its ${list} list was cut ${listed.cut} (${listed.items.length} kept)`;
    if (this.cuts.get(list) !== listed.cut) alert(note);
    this.cuts.set(list, listed.cut);
    return { items: listed.items, note };
  }
}
