import { z } from 'zod';

/** One pod in the `<prefix>pods` bucket (key: its name). */
export const PodEntrySchema = z.object({
  name: z.string(),
  host: z.string(),
  /** How to reach it: its Unix socket (on its host), and WebSocket URLs when it listens on any. */
  endpoints: z.object({ socket: z.string(), ws: z.array(z.string()).optional() }),
  /** `status.json`'s status at the last heartbeat (`idle`, `running`...). */
  status: z.string(),
  /** The pod that spawned it, or null. */
  parent: z.string().nullable(),
  pid: z.int(),
  /** When the entry was last refreshed (ms since the epoch, the pod's clock). */
  heartbeat: z.int(),
  started_at: z.int(),
});
export type PodEntry = z.infer<typeof PodEntrySchema>;

/** One `yoi host` in the `<prefix>hosts` bucket (key: its name). */
export const HostEntrySchema = z.object({
  name: z.string(),
  pid: z.int(),
  /** Where pods it places work (the project path on that host). */
  project_dir: z.string(),
  heartbeat: z.int(),
  started_at: z.int(),
});
export type HostEntry = z.infer<typeof HostEntrySchema>;
