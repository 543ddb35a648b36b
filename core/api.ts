/**
 * The public face of yoi: everything a plugin or a config file may use, and nothing internal.
 * Built-in plugins import only this (a lint rule checks it), exactly as a third party imports
 * `yoi`. `index.ts` adds `defaultPlugins()`. What is exported here is the stable API (see the
 * API report, `yoi.api.md`); anything else may change between releases.
 */
export { z } from 'zod';

// Plugins
export { definePlugin, type PluginDefinition, type PluginFactory } from './plugin/definePlugin.js';
export type { PluginApi, ProjectInfo, SegmentKindTaps } from './plugin/PluginApi.js';
export { isYoiPlugin, type YoiPlugin, type PluginConfigSection } from './plugin/YoiPlugin.js';
export { defineService, type ServiceKey } from './plugin/defineService.js';
export { STAGE_EARLY, STAGE_DEFAULT, STAGE_LATE } from './plugin/stages.js';
export {
  MethodError, type EventChannel, type EventDefinition, type MethodContext, type MethodDefinition, type MethodResult,
} from './plugin/ProtocolExtensions.js';
export type { Hooks, HookName, ModelConfig } from './hooks/createHooks.js';
export type * from './hooks/HookTypes.js';
export type { PodServices } from './hooks/PodServices.js';
export type { RuntimeDir } from './pod/RuntimeFiles.js';

// Segments
export { defineSegmentKind, type SegmentKind, type SegmentKindDefinition, type SegmentOf } from './segments/defineSegmentKind.js';
export type { Resolution } from './pipeline/Resolution.js';
export type { ResolveContext } from './pipeline/ResolveContext.js';

// Tools and providers
export { defineTool, type ToolDefinition as ToolSpec } from './tools/defineTool.js';
export { ToolRefusal, refusalsAsResults } from './tools/ToolRefusal.js';
export type { Tool, ToolContext, ToolOutput } from './tools/Tool.js';
export type { FileActivity } from './tools/FileActivity.js';
export type { Provider, ProviderContext, ProviderPart, LlmRequest, ToolDefinition } from './provider/Provider.js';
export { messageItem, itemText, HistoryItemSchema, type HistoryItem } from './history/HistoryItem.js';
export { countItemsTokens, countTextTokens, estimateItemsTokens, estimateTextTokens } from './tokens/estimateTokens.js';

// Scope, and opening only what was checked (what was opened must be the checked path)
export { Scope, canonicalPath, isWithin, ruleMatches, type ScopeCheck, type ScopeConfigInput, type ScopeLock, type ResolvedRule } from './scope/index.js';
export {
  PinnedDir, PinnedDirSync, openRegularFile, lstatListed, describeSpecial, descriptorPath, descriptorPathSync, isOpenedAt, pathChanged, HAS_PROC_FD,
  type OpenedFile, type ProtectedPath, type ProtectedPathInput,
} from './scope/index.js';

// Config
export { defineConfig } from './config/defineConfig.js';
export type { YoiConfig, PluginConfigSections, ScopeRule } from './config/YoiConfigSchema.js';
export type { ResolvedConfig } from './config/resolveConfig.js';

// Errors
export { ERROR_CODES, type ErrorCode as YoiErrorCode } from './errors/codes.js';
export { YoiError, isYoiError } from './errors/YoiError.js';
export { PluginError, isPluginError } from './errors/PluginError.js';
export { formatZodError } from './errors/formatZodError.js';

// Clients and pods on this machine
export { PodClient, PodRequestError, type PodClientOptions } from './client/PodClient.js';
export { runtimeBase, podPaths, validatePodName, checkSocketPath, type PodPaths } from './pod/runtimePaths.js';
export { ensurePrivateDir, isPidAlive, isSocketLive, readStatusFile, writeFileAtomic, type PodStatusFile } from './pod/podFiles.js';
export { POD_NODE_FLAGS } from './pod/podNodeFlags.js';
export { PodNameSchema } from './pod/PodNameSchema.js';
// Paths and sockets yoi trusts are the user's own (another local user's are refused).
export {
  RUNTIME_DIR, RUNTIME_FILE, POD_SOCKET, ensureOwnDir, checkOwnDir, openOwnFile, readOwnFile, checkOwnSocket, socketTrustProblem,
  type TrustLabel,
} from './pod/trustedPath.js';

// The wire protocol
export {
  PROTOCOL_VERSION, SegmentSchema, PodEventSchema, UnknownSegment, UnknownPodEvent, segmentKind, podEventKind, podEventSource,
  encodeMethod, encodeEvent, decodeEventLine, decodeMethodLine, LineReader,
  type Segment, type TextSegment, type PasteSegment, type FileRefSegment, type KnowledgeRefSegment, type WorkflowInvokeSegment,
  type Event, type EventOf, type EventName, type EventData, type Method, type MethodOf, type MethodName, type PodEvent,
  type PodStatus, type AlertLevel, type AlertSource, type ErrorCode, type RunResult, type SegmentKindInfo,
} from './protocol/index.js';
export {
  TextSegmentSchema, PasteSegmentSchema, FileRefSegmentSchema, KnowledgeRefSegmentSchema, WorkflowInvokeSegmentSchema,
} from './protocol/index.js';
