/**
 * The public face of yoi: everything a plugin or a config file may use, and nothing internal.
 * Built-in plugins import only this (a lint rule checks it), exactly as a third party imports
 * `yoi`. `index.ts` adds `defaultPlugins()`.
 *
 * Stability (the API report `etc/yoi.api.md` lists every export with its tag; `npm run api:check`
 * fails when it changes unnoticed): an export without a release tag is `@public` — kept
 * compatible within a minor version while yoi is 0.x, within a major version from 1.0 on.
 * `@beta` marks the helpers for plugins that manage pods and their runtime files (the pod tree's
 * building blocks): usable, but they may change in any minor version.
 *
 * @packageDocumentation
 */
export { z } from 'zod';

// Plugins
export {
  definePlugin,
  type PluginDefinition,
  type PluginFactory,
  type PluginOptionsIn,
  type PluginOptionsOut,
  type PluginConfigOut,
} from './plugin/definePlugin.js';
export type { PluginApi, ProjectInfo, SegmentKindTaps } from './plugin/PluginApi.js';
export { isYoiPlugin, type YoiPlugin, type PluginConfigSection } from './plugin/YoiPlugin.js';
export { defineService, type ServiceKey } from './plugin/defineService.js';
export { STAGE_EARLY, STAGE_DEFAULT, STAGE_LATE } from './plugin/stages.js';
export {
  MethodError,
  type EventChannel,
  type EventDefinition,
  type MethodContext,
  type MethodDefinition,
  type MethodResult,
} from './plugin/ProtocolExtensions.js';
export type { ExtensionEvent } from './protocol/ExtensionEvent.js';
export { createHooks, type Hooks, type HookName, type ModelConfig } from './hooks/createHooks.js';
export type * from './hooks/HookTypes.js';
export type { PodServices, PluginLog } from './hooks/PodServices.js';
export type { RuntimeDir } from './pod/RuntimeFiles.js';
export type { Transport } from './server/Transport.js';
export { WebSocketTransport } from '../client/WebSocketTransport.js';

// Segments
export {
  defineSegmentKind,
  type SegmentKind,
  type SegmentKindDefinition,
  type SegmentOf,
} from './segments/defineSegmentKind.js';
export { ResolutionSchema, type Resolution } from './pipeline/Resolution.js';
export type { ResolveContext } from './pipeline/ResolveContext.js';

// Tools and providers
export { defineTool, type ToolDefinition as ToolSpec } from './tools/defineTool.js';
export { ToolRefusal, refusalsAsResults } from './tools/ToolRefusal.js';
export type { Tool, ToolContext, ToolOutput, ToolProgress } from './tools/Tool.js';
export { runStopOf, type RunStop } from './controller/RunStopped.js';
export type { FileActivity } from './tools/FileActivity.js';
export type {
  BufferedPartIterator,
  Provider,
  ProviderContext,
  ProviderPart,
  LlmRequest,
  ToolDefinition,
} from './provider/Provider.js';
export {
  messageItem,
  itemText,
  HistoryItemSchema,
  MessageItemSchema,
  ToolCallItemSchema,
  ToolResultItemSchema,
  type HistoryItem,
  type MessageItem,
  type ToolCallItem,
  type ToolResultItem,
} from './history/HistoryItem.js';
export { countItemsTokens, countTextTokens, estimateItemsTokens, estimateTextTokens } from './tokens/estimateTokens.js';

// Scope, and opening only what was checked (what was opened must be the checked path)
export {
  Scope,
  canonicalPath,
  isWithin,
  ruleMatches,
  ResolvedRuleSchema,
  ScopeRuleInputSchema,
  PermissionSchema,
  type ScopeCheck,
  type ScopeConfigInput,
  type ScopeLock,
  type ResolvedRule,
  type ScopeRuleInput,
  type Permission,
} from './scope/index.js';
export {
  PinnedDir,
  PinnedDirSync,
  openRegularFile,
  lstatListed,
  describeSpecial,
  pathChanged,
  type OpenedFile,
  type ProtectedPath,
  type ProtectedPathInput,
} from './scope/index.js';
export { protectedKeys, protectedKeyValue, type ProtectedKey } from './scope/protectedKeys.js';

// Config
export { defineConfig } from './config/defineConfig.js';
export {
  YoiConfigSchema,
  ScopeRuleSchema,
  type YoiConfig,
  type ParsedConfig,
  type PluginConfigSections,
  type ScopeRule,
} from './config/YoiConfigSchema.js';
export type { ResolvedConfig, ResolvedScopeRule } from './config/resolveConfig.js';

// Errors
export { ERROR_CODES, type ErrorCode as YoiErrorCode } from './errors/codes.js';
export { YoiError, isYoiError } from './errors/YoiError.js';
export { PluginError, isPluginError } from './errors/PluginError.js';
export { formatZodError } from './errors/formatZodError.js';

// Clients
export {
  PodClient,
  PodRequestError,
  type PodClientOptions,
  type MethodInput,
  type WelcomeData,
  type UnknownEvent,
} from '../client/PodClient.js';
export type { Reply as PodReply } from '../client/V1Emulation.js';

// Pods on this machine: runtime files and trusted (the user's own) paths and sockets (@beta)
export { runtimeBase, podPaths, validatePodName, checkSocketPath, type PodPaths } from './pod/runtimePaths.js';
export { AtomicFileWriter } from './pod/AtomicFileWriter.js';
export {
  ensurePrivateDir,
  isPidAlive,
  isSocketLive,
  readStatusFile,
  writeFileAtomic,
  type PodStatusFile,
} from './pod/podFiles.js';
export { POD_NODE_FLAGS } from './pod/podNodeFlags.js';
export { PodNameSchema } from './pod/PodNameSchema.js';
export {
  RUNTIME_FILE,
  openOwnFile,
  readOwnFile,
  checkOwnSocket,
  socketTrustProblem,
  type TrustLabel,
} from './pod/trustedPath.js';

// The wire protocol
export {
  PROTOCOL_VERSION,
  SegmentSchema,
  PodEventSchema,
  UnknownSegment,
  UnknownPodEvent,
  segmentKind,
  podEventKind,
  podEventSource,
  encodeMethod,
  encodeEvent,
  decodeEventLine,
  decodeMethodLine,
  LineReader,
  METHOD_PARAMS,
  EVENT_DATA,
  type Segment,
  type TextSegment,
  type PasteSegment,
  type FileRefSegment,
  type KnowledgeRefSegment,
  type WorkflowInvokeSegment,
  type Event,
  type EventOf,
  type EventName,
  type EventData,
  type Method,
  type MethodOf,
  type MethodName,
  type ParamsOf,
  type PodEvent,
  type PodStatus,
  type AlertLevel,
  type AlertSource,
  type ErrorCode,
  type RunResult,
  type SegmentKindInfo,
  type Decoded,
  type LineReaderOptions,
  type LineError,
  type ByteBudget,
} from './protocol/index.js';
export {
  TextSegmentSchema,
  PasteSegmentSchema,
  FileRefSegmentSchema,
  KnowledgeRefSegmentSchema,
  WorkflowInvokeSegmentSchema,
  AlertLevelSchema,
  AlertSourceSchema,
  ErrorCodeSchema,
  PodStatusSchema,
  RunResultSchema,
  SegmentKindInfoSchema,
} from './protocol/index.js';
