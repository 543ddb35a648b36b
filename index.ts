/**
 * The `yoi` package: what config files and third-party plugins import.
 * `import { defineConfig, definePlugin, z } from 'yoi'`.
 */
export { z } from 'zod';

export { definePlugin, type PluginDefinition, type PluginFactory } from './core/plugin/definePlugin.js';
export { PluginHost, type HookMapName, type PluginDescription } from './core/plugin/PluginHost.js';
export { isYoiPlugin, type YoiPlugin } from './core/plugin/YoiPlugin.js';
export { STAGE_EARLY, STAGE_DEFAULT, STAGE_LATE } from './core/plugin/stages.js';

export { defineConfig } from './core/config/defineConfig.js';
export { YoiConfigSchema, ScopeRuleSchema, type YoiConfig, type ParsedConfig, type ScopeRule } from './core/config/YoiConfigSchema.js';
export { loadConfig, type LoadConfigOptions } from './core/config/loadConfig.js';
export { resolveConfig, DEFAULT_MODEL, type ResolvedConfig, type ResolvedScopeRule } from './core/config/resolveConfig.js';
export { createHostFromConfig } from './core/config/createHostFromConfig.js';
export { configToJson } from './core/config/configToJson.js';

export { ERROR_CODES, type ErrorCode } from './core/errors/codes.js';
export { YoiError, isYoiError } from './core/errors/YoiError.js';
export { PluginError, isPluginError } from './core/errors/PluginError.js';

export { createHooks, ISOLATED_HOOKS, type Hooks, type HookName, type ModelConfig } from './core/hooks/createHooks.js';
export type * from './core/hooks/HookTypes.js';
export type { PodServices } from './core/hooks/PodServices.js';
export type { Provider, ProviderContext, ProviderPart, LlmRequest, ToolDefinition } from './core/provider/Provider.js';
export type { Tool, ToolContext, ToolOutput } from './core/tools/Tool.js';
export type { Resolution } from './core/pipeline/Resolution.js';
export type { ResolveContext } from './core/pipeline/ResolveContext.js';

export { Scope, scopeOf, canonicalPath, type ScopeCheck, type ScopeLock } from './core/scope/index.js';
export { PinnedDir, openRegularFile, lstatListed, type OpenedFile } from './core/scope/index.js';
export { PodClient, PodRequestError, type PodClientOptions } from './core/client/PodClient.js';
export { messageItem, itemText, HistoryItemSchema, type HistoryItem } from './core/history/HistoryItem.js';

export * from './core/protocol/index.js';

export { defaultPlugins } from './plugins/index.js';
