/**
 * The `yoi` package: what config files and third-party plugins import —
 * `import { defineConfig, definePlugin, z } from 'yoi'` — the public API (`core/api.ts`) plus the
 * built-in plugins.
 */
export * from './core/api.js';
export { defaultPlugins } from './plugins/index.js';
