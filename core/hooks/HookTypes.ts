import type { HistoryItem } from '../history/HistoryItem.js';
import type { LlmRequest, Provider } from '../provider/Provider.js';
import type { ToolOutput } from '../tools/Tool.js';
import type { RunResult } from '../protocol/index.js';
import type { PodServices } from './PodServices.js';
import type { ResolvedConfig } from '../config/resolveConfig.js';
import type { ScopeConfigInput } from '../scope/Scope.js';
import type { RuntimeDir } from '../pod/RuntimeFiles.js';

/** Argument types of the hook catalog (see createHooks). Fields may be added, never removed. */

/** A client connection, as hooks see it. */
export interface ClientInfo {
  /** Unique per pod process (connection number). */
  readonly id: number;
  /** The name it gave in `hello` (`yoi-cli/0.1.0`, `pod/<parent>`); absent for v1 clients. */
  readonly name?: string;
  readonly protocol: 1 | 2;
  /** What it presented in `hello` as `auth`, for plugins that authenticate clients (the pod tree's child reports). */
  readonly credential?: string;
}

/** Where the pod runs; passed to lifecycle hooks and factories. */
export interface PodInfo {
  readonly podName: string;
  readonly cwd: string;
  readonly projectDir: string;
  readonly services: PodServices;
  /**
   * How the pod was launched, for plugins that started it (`{ adopt: {...} }` for a pod started by
   * SpawnPod). Opaque to the core: each plugin validates its own part.
   */
  readonly launch: Readonly<Record<string, unknown>>;
}

/**
 * A segment as resolvers receive it: for a declared kind (`defineSegmentKind`) the validated,
 * typed object; otherwise the object the client sent. `kind` is always the sender's kind.
 */
export type SegmentInput = { readonly kind: string } & Readonly<Record<string, unknown>>;

/** `resolveScope`: what the pod knows before its scope is set. */
export interface ScopeRequest {
  readonly podName: string;
  /** The pod's runtime directory (its socket, the runtime base). */
  readonly runtime: RuntimeDir;
  readonly cwd: string;
  readonly projectDir: string;
  readonly launch: Readonly<Record<string, unknown>>;
  readonly config: ResolvedConfig;
}

/** Scope rules (what `resolveScope` returns); targets absolute or relative to the project. */
export type ScopeRules = ScopeConfigInput;

/** `completeSegment` context: what the user typed after `@`, `#` or `/`. */
export interface CompleteContext extends PodInfo {
  readonly prefix: string;
  readonly signal: AbortSignal;
  /** Stop adding items beyond this many. */
  readonly limit: number;
}

/** `podEvent` context: the parent pod receiving a child's report. */
export interface PodEventContext extends PodInfo {
  readonly signal: AbortSignal;
  /** The connection the report came on. */
  readonly client: ClientInfo;
  /**
   * The report's request id (v2 reporters). A pod killed after the side effects and before the
   * report was recorded runs them again for the retried report: key them by this id (or make
   * them idempotent otherwise) so that they happen once.
   */
  readonly requestId?: string;
}

/** `tools.for(name)` factory context. */
export type ToolFactoryContext = PodInfo;

/** `beforeTurn` context: one LLM request within a run. */
export interface TurnContext extends PodInfo {
  readonly turn: number;
  readonly signal: AbortSignal;
  /** The client whose `run`/`resume` started the run (absent for notifications and pod events). */
  readonly client?: ClientInfo;
}

/** `afterTurn`: what one LLM request produced. */
export interface TurnSummary {
  readonly turn: number;
  readonly text: string;
  readonly toolCalls: readonly { id: string; name: string; arguments: string }[];
  readonly usage?: { input_tokens?: number; output_tokens?: number };
}

/** `beforeToolCall` / `afterToolCall`: the call being made. */
export interface ToolCallInfo extends PodInfo {
  readonly id: string;
  readonly name: string;
  /** Parsed arguments (an object; `{}` when the model sent invalid JSON). */
  readonly arguments: unknown;
  readonly signal: AbortSignal;
  /** The client whose run made the call (absent for runs started by notifications). */
  readonly client?: ClientInfo;
}

/**
 * `beforeToolCall` result: `skip` returns a neutral result without running the tool,
 * `refuse` returns an error result the model sees (a policy said no).
 */
export type ToolCallDecision = { action: 'skip' | 'refuse'; reason: string };

/**
 * Why a compaction runs: `threshold` (post-run, `compaction.threshold`), `request` (mid-turn,
 * before an LLM request would exceed `compaction.requestThreshold`), `manual` (v2 `compact`).
 */
export type CompactReason = 'threshold' | 'request' | 'manual';

/** `beforeCompact` / `compact`: what to compact. */
export interface CompactRequest {
  /** The whole current history (the strategy decides what to summarise and what to keep). */
  readonly items: readonly HistoryItem[];
  /** Tokens of recent history to keep verbatim (`compaction.retainedTokens`). */
  readonly retainedTokens: number;
  /** Estimated tokens of `items`. */
  readonly totalTokens: number;
  readonly reason: CompactReason;
  /** Paths of the files most recently touched by tools (newest first, at most 5). */
  readonly recentFiles: readonly string[];
}

export interface CompactContext extends PodInfo {
  /** Aborts when the compaction is paused, cancelled or the pod stops; stop promptly. */
  readonly signal: AbortSignal;
  readonly provider: Provider;
  /** The pod's system prompt. */
  readonly system: string;
  /** Estimated tokens of these items (the pod's tokenizer; cached per item). */
  countTokens(items: readonly HistoryItem[]): number;
  /**
   * Streams a request through the pod's provider (no tools, nothing shown to clients) and
   * returns its text. Rejects on a provider error or an abort.
   */
  complete(request: Omit<LlmRequest, 'signal' | 'tools'>): Promise<string>;
}

/** `compact` result: the history of the new session (summary items + retained tail). */
export interface CompactResult {
  readonly items: readonly HistoryItem[];
}

/** `afterCompact`: how a compaction ended. */
export type CompactOutcome =
  | {
      ok: true;
      reason: CompactReason;
      oldSessionId: string;
      newSessionId: string;
      tokensBefore: number;
      tokensAfter: number;
    }
  | {
      ok: false;
      reason: CompactReason;
      oldSessionId: string;
      error: string;
      /** Paused, cancelled or stopped, not failed. */ aborted: boolean;
    };

/** `runEnd`: how a run ended. */
export interface RunEndInfo extends PodInfo {
  readonly result: RunResult | 'error';
  readonly error?: string;
  /** What started the run. */
  readonly trigger: 'run' | 'resume' | 'notify' | 'pod_event';
  /**
   * The connection whose `run` or `resume` started the run (its `name` is `pod/<parent>` when a
   * parent pod sent it); absent for runs started by a notification or a pod event.
   */
  readonly client?: ClientInfo;
}

/** `podEvent` context: also who sent the report. */
export interface PodEventSender {
  readonly client: ClientInfo;
}

export type { ToolOutput, LlmRequest };
