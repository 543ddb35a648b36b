import path from 'node:path';
import { z } from 'zod';
import type { Placement } from './ReportRelay.js';
import { readOwnFile, writeFileAtomic } from '../../../core/api.js';

const FileSchema = z.record(z.string(), z.object({ parent: z.string(), secret: z.string() }));

/**
 * The pods this host placed (child → its parent and secret), written through to
 * `<runtime base>/.host-placements.json` (0600, atomic), so a restarted `yoi host` still relays
 * their reports and commands. A file that is not the user's own, or does not parse, is ignored.
 */
export class HostPlacements extends Map<string, Placement> {
  private readonly file: string;

  constructor(base: string) {
    super();
    this.file = path.join(base, '.host-placements.json');
    try {
      const text = readOwnFile(this.file);
      const parsed = text === undefined ? undefined : FileSchema.safeParse(JSON.parse(text));
      if (parsed?.success) for (const [child, p] of Object.entries(parsed.data)) super.set(child, p);
    } catch {
      // unreadable: start empty
    }
  }

  override set(child: string, placement: Placement): this {
    super.set(child, placement);
    this.save();
    return this;
  }

  override delete(child: string): boolean {
    const had = super.delete(child);
    if (had) this.save();
    return had;
  }

  private save(): void {
    // Map's constructor calls set() before `file` is assigned.
    if (this.file) writeFileAtomic(this.file, `${JSON.stringify(Object.fromEntries(this), null, 2)}\n`);
  }
}
