import { z } from 'zod';
import type { PodServices } from '../../../core/hooks/PodServices.js';

/** Defaults, as in the config schema: used when neither the plugin nor the config says. */
export const DEFAULT_FILE_REF_BYTES = 256 * 1024;
export const DEFAULT_KNOWLEDGE_DIR = '.yoi/knowledge';
export const DEFAULT_WORKFLOWS_DIR = '.yoi/workflows';

/** The part of the pod's resolved config the resolvers read; every piece optional. */
const ConfigViewSchema = z.object({
  limits: z.object({ fileRefBytes: z.int().min(1).optional() }).optional().catch(undefined),
  knowledge: z.object({ dir: z.string().min(1).optional() }).optional().catch(undefined),
  workflows: z.object({ dir: z.string().min(1).optional() }).optional().catch(undefined),
}).catch({});

export type ResolverSettings = z.infer<typeof ConfigViewSchema>;

/**
 * What `services.config` says about resolvers, read defensively: a host without a config (or
 * with another shape) yields `{}`, and each plugin falls back to its options and defaults.
 */
export function resolverSettings(services: PodServices | undefined): ResolverSettings {
  const config = (services as { config?: unknown } | undefined)?.config;
  return config === undefined ? {} : ConfigViewSchema.parse(config);
}
