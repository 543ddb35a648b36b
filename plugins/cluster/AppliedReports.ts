import { z } from 'zod';
import type { PodServices } from '../../core/api.js';

type PluginLog = PodServices['pluginLog'];

/** How many applied report ids are remembered (JetStream redelivers only unacknowledged ones). */
const MAX_REMEMBERED = 10_000;

const EntrySchema = z.object({ applied: z.string() });

/**
 * The ids of reports from remote children this pod has applied, kept in its session log
 * (`services.pluginLog`) so a report redelivered after a restart with `--resume` is
 * acknowledged without being applied again. Bounded: the newest 10,000.
 */
export class AppliedReports {
  private readonly ids = new Set<string>();

  constructor(
    private readonly log: PluginLog,
    private readonly plugin: string,
  ) {
    for (const entry of log.restored(plugin)) {
      const parsed = EntrySchema.safeParse(entry);
      if (parsed.success) this.remember(parsed.data.applied);
    }
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Records `id` as applied; the entry is written with the log's next write (end of this event-loop turn). */
  add(id: string): void {
    if (this.ids.has(id)) return;
    this.remember(id);
    this.log.append(this.plugin, { applied: id });
  }

  private remember(id: string): void {
    this.ids.add(id);
    if (this.ids.size > MAX_REMEMBERED) this.ids.delete(this.ids.values().next().value!);
  }
}
