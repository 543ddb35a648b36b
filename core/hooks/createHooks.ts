import tapable from 'tapable';
import type { PodEvent } from '../protocol/index.js';
import type { Resolution } from '../pipeline/Resolution.js';
import type { ResolveContext } from '../pipeline/ResolveContext.js';
import type { Provider, ProviderContext } from '../provider/Provider.js';
import type { Tool } from '../tools/Tool.js';
import type {
  ClientInfo,
  CompactContext,
  CompactOutcome,
  CompactRequest,
  CompactResult,
  CompleteContext,
  LlmRequest,
  PodEventContext,
  PodInfo,
  RunEndInfo,
  ScopeRequest,
  ScopeRules,
  SegmentInput,
  ToolCallDecision,
  ToolCallInfo,
  ToolFactoryContext,
  ToolOutput,
  TurnContext,
  TurnSummary,
} from './HookTypes.js';

const {
  HookMap,
  AsyncSeriesBailHook,
  AsyncSeriesHook,
  AsyncSeriesWaterfallHook,
  AsyncParallelHook,
  SyncBailHook,
  SyncWaterfallHook,
} = tapable;

/** `model` section of the config, handed to the provider factory it names. */
export type ModelConfig = { provider: string } & Record<string, unknown>;

/**
 * Hooks whose taps are isolated: a failing tap becomes an alert naming its plugin and the
 * other taps still run (side effects and observers must not break each other).
 */
export const ISOLATED_HOOKS: ReadonlySet<HookName> = new Set<HookName>([
  'podEvent',
  'afterTurn',
  'afterCompact',
  'runEnd',
  'podStop',
  'clientConnected',
]);

/** Hooks whose taps run in reverse order of apply (teardown: the last set up is the first torn down). */
export const REVERSED_HOOKS: ReadonlySet<HookName> = new Set<HookName>(['podStop']);

/**
 * Builds the hook catalog of one pod (ARCHITECTURE §2). Plugins tap these in `apply()`; the
 * host freezes them when the pod starts. Tap with `tap` (sync hooks) or `tapPromise`
 * (async hooks); `tapAsync` is refused. Every tap's failure becomes a `PluginError` naming
 * the plugin and the hook.
 *
 * Exported because `Hooks` is its return type; plugins get their pod's hooks as `api.hooks`.
 */
export function createHooks() {
  return Object.freeze({
    /**
     * Resolves one input segment into model context. Keyed by segment kind (`paste`,
     * `file_ref`, or any third-party kind). Fires once per segment of every `run`.
     * Return: a Resolution (first one wins), or `undefined` to let the next tap try.
     * No tap, all `undefined`, or `unresolved` ⇒ placeholder for the model + alert to clients.
     * Failure: the segment falls back the same way and the alert names the plugin.
     */
    resolveSegment: new HookMap(
      () => new AsyncSeriesBailHook<[SegmentInput, ResolveContext], Resolution | undefined>(['segment', 'ctx']),
    ),

    /**
     * Completion candidates for a v2 `list_completions{kind, prefix}`. Keyed by segment kind.
     * Return: the list with this tap's items added (waterfall). Failure: the tap's items are
     * skipped; the requester still gets the rest.
     */
    completeSegment: new HookMap(() => new AsyncSeriesWaterfallHook<[string[], CompleteContext]>(['items', 'ctx'])),

    /**
     * Whether to accept a child pod's report at all (before any side effect). Return: a reason
     * to refuse it (the sender gets an error, nothing is applied), or `undefined`. The pod tree
     * checks here that only the real child reports for itself. Failure: the report is refused
     * with `internal` (nothing applied; the child tries again).
     */
    checkPodEvent: new AsyncSeriesBailHook<[PodEvent, PodEventContext], string | undefined>(['event', 'ctx']),

    /**
     * Side effects of a child pod's report (registry, scope lock). Keyed by PodEvent kind.
     * All taps run in order. Failure: an alert naming the plugin; the other taps still run.
     */
    podEvent: new HookMap(() => new AsyncSeriesHook<[PodEvent, PodEventContext]>(['event', 'ctx'])),

    /**
     * The line the parent's model reads for a child's report. Keyed by PodEvent kind.
     * Return: the text (first wins); `null` when the report is not for the model at all (a
     * plugin handled it, e.g. a child's permission ask); `undefined` to let another tap try.
     * No answer ⇒ a generic line + an alert.
     */
    renderPodEvent: new HookMap(() => new SyncBailHook<[PodEvent], string | null | undefined>(['event'])),

    /**
     * Provider factories, keyed by the `model.provider` name of the config. Fires once at pod
     * start. Return: a Provider. Throw (e.g. a missing API key) to stop the pod with a clear
     * message naming the plugin.
     */
    providers: new HookMap(
      () => new SyncBailHook<[ModelConfig, ProviderContext], Provider | undefined>(['model', 'ctx']),
    ),

    /**
     * Tool factories, keyed by tool name. Fires once at pod start. Return: the Tool, or
     * `undefined` to leave it out of this pod.
     */
    tools: new HookMap(() => new SyncBailHook<[ToolFactoryContext], Tool | undefined>(['ctx'])),

    /**
     * The tools offered to the model, asked before each LLM request (and before running a paused
     * run's calls): starts with the tools made at pod start; a plugin whose tools change at run
     * time (MCP servers) returns the list with its current ones added. Calls are looked up in the
     * same list. Failure: the run ends with an `error` naming the plugin.
     */
    listTools: new SyncWaterfallHook<[Tool[], PodInfo]>(['tools', 'pod']),

    /**
     * Before each LLM request. Return: the request to send (waterfall: rewrite system prompt or
     * items). Failure: the run ends with an `error` naming the plugin.
     */
    beforeTurn: new AsyncSeriesWaterfallHook<[LlmRequest, TurnContext]>(['request', 'ctx']),

    /** After each LLM request's stream ended. Observers only; failures become alerts. */
    afterTurn: new AsyncParallelHook<[TurnSummary, PodInfo]>(['turn', 'pod']),

    /**
     * Before a tool runs (permission policy lives here). Return: a ToolCallDecision to skip or
     * refuse the call, or `undefined` to allow it. Failure: the call is refused with the error.
     */
    beforeToolCall: new AsyncSeriesBailHook<[ToolCallInfo], ToolCallDecision | undefined>(['call']),

    /** After a tool ran. Return: the (possibly rewritten) output (waterfall). */
    afterToolCall: new AsyncSeriesWaterfallHook<[ToolOutput, ToolCallInfo]>(['output', 'call']),

    /** Before a compaction. Return: the (possibly adjusted) request (waterfall). */
    beforeCompact: new AsyncSeriesWaterfallHook<[CompactRequest, CompactContext]>(['request', 'ctx']),

    /**
     * Makes the compacted history (the strategy). Return: a CompactResult (first wins).
     * No result or a failure ⇒ `compact_failed`, session unchanged.
     */
    compact: new AsyncSeriesBailHook<[CompactRequest, CompactContext], CompactResult | undefined>(['request', 'ctx']),

    /** After a compaction ended either way. Observers only; failures become alerts. */
    afterCompact: new AsyncParallelHook<[CompactOutcome, PodInfo]>(['outcome', 'pod']),

    /**
     * The pod's scope, before anything else starts. Return: allow/deny rules (first wins), or
     * `undefined` for the config's `scope`. The pod tree supplies a spawned pod's delegated scope
     * here. Failure stops the pod.
     */
    resolveScope: new AsyncSeriesBailHook<[ScopeRequest], ScopeRules | undefined>(['request']),

    /**
     * Once, when the scope is known and before the provider, tools and session are made: set up
     * what the plugin needs (files, locks, background connections). Failure stops the pod.
     */
    podInit: new AsyncSeriesHook<[PodInfo]>(['pod']),

    /** The system prompt of a new session (waterfall: append instructions). */
    systemPrompt: new AsyncSeriesWaterfallHook<[string, PodInfo]>(['prompt', 'pod']),

    /** Once, after the pod listens and before the first client is served. Failure stops the pod. */
    podStart: new AsyncSeriesHook<[PodInfo]>(['pod']),

    /**
     * Extra fields of the v2 `welcome` a client gets (waterfall: return the object with yours
     * added, e.g. pending asks). Sync. Failure: the client's `hello` is answered with an
     * `internal` error naming the plugin; the pod goes on.
     */
    welcome: new SyncWaterfallHook<[Record<string, unknown>, ClientInfo]>(['welcome', 'client']),

    /** After a client negotiated v2 (its `welcome` is sent): send it state it missed. Failures become alerts. */
    clientConnected: new AsyncParallelHook<[ClientInfo, PodInfo]>(['client', 'pod']),

    /** After every run reached its terminal event. Observers only; failures become alerts. */
    runEnd: new AsyncParallelHook<[RunEndInfo]>(['run']),

    /**
     * When the pod shuts down, before the runtime dir is removed. Taps run in reverse order of
     * apply (what was set up last is torn down first); all run, failures become alerts.
     */
    podStop: new AsyncSeriesHook<[PodInfo]>(['pod']),
  });
}

export type Hooks = ReturnType<typeof createHooks>;
export type HookName = keyof Hooks;
