/** What the testing helpers use from yoi: its public API, and the few internals a real pod needs. */
export * from '../core/api.js';
export { FileActivity } from '../core/tools/FileActivity.js';
export { YoiConfigSchema } from '../core/config/YoiConfigSchema.js';
export { resolveConfig } from '../core/config/resolveConfig.js';
export { PluginHost } from '../core/plugin/PluginHost.js';
export { parseSections, schemaWithSections } from '../core/config/pluginSections.js';
export { ResolutionSchema } from '../core/pipeline/Resolution.js';
