import { z } from 'zod';
import type { ResolvedConfig } from '../../core/api.js';

/** A command's time limit when the call gives none. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** The longest `timeout_ms` a call may ask for (a configured default above it raises it). */
export const MAX_TIMEOUT_MS = 600_000;

/**
 * Options of `yoi:bash`, as plugin options (`bashTool({...})`) and as the config's `bash`
 * section (which wins, key by key, when the config has one).
 */
export const BashOptionsSchema = z.strictObject({
  /** Let commands reach the network (default: no network at all, loopback included). */
  network: z.boolean().optional(),
  /**
   * `bwrap` (default): every command runs in a bubblewrap sandbox; where none can be made, Bash
   * is not offered. `off`: commands run unsandboxed (the tool says `sandboxed: false`).
   */
  sandbox: z.enum(['bwrap', 'off']).optional(),
  /** Time limit of a command that gives no `timeout_ms` (default 2 minutes). */
  timeoutMs: z.int().min(1).optional(),
  /** Output the model reads per command, head and tail kept (default: `limits.toolOutputBytes`). */
  maxOutputBytes: z.int().min(256).optional(),
  /** The bubblewrap executable (default: `bwrap` on PATH). */
  bwrapPath: z.string().min(1).optional(),
});
export type BashOptions = z.input<typeof BashOptionsSchema>;

/** The settings one pod's Bash runs with. */
export interface BashSettings {
  readonly network: boolean;
  readonly sandbox: 'bwrap' | 'off';
  readonly timeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly maxOutputBytes: number;
  readonly bwrapPath?: string;
}

/** Tool output the pod passes on whole (its default limit); Bash keeps within it. */
const DEFAULT_OUTPUT_BYTES = 16 * 1024;

/**
 * Plugin options, overridden key by key by the config's `bash` section (validated with the same
 * schema as the plugin's config section); the output cap never exceeds the pod's
 * `limits.toolOutputBytes`, so the pod never cuts Bash's output a second time (head only).
 */
export function bashSettings(
  options: z.output<typeof BashOptionsSchema> | undefined,
  section: z.output<typeof BashOptionsSchema> | undefined,
  config: ResolvedConfig | undefined,
): BashSettings {
  const fromConfig = Object.fromEntries(Object.entries(section ?? {}).filter(([, v]) => v !== undefined));
  const merged = { ...options, ...fromConfig };
  const timeoutMs = merged.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const podLimit = config?.limits.toolOutputBytes ?? DEFAULT_OUTPUT_BYTES;
  return {
    network: merged.network ?? false,
    sandbox: merged.sandbox ?? 'bwrap',
    timeoutMs,
    maxTimeoutMs: Math.max(MAX_TIMEOUT_MS, timeoutMs),
    maxOutputBytes: Math.min(merged.maxOutputBytes ?? podLimit, podLimit),
    ...(merged.bwrapPath ? { bwrapPath: merged.bwrapPath } : {}),
  };
}
