import type { YoiConfig } from './YoiConfigSchema.js';

/**
 * Identity helper giving a `yoi.config.ts` its types: `export default defineConfig({...})`.
 * Validation happens when the config is loaded, not here.
 */
export function defineConfig(config: YoiConfig): YoiConfig {
  return config;
}
