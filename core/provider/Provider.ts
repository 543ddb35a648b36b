import type { HistoryItem } from '../history/HistoryItem.js';

/** A tool as the model sees it. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the tool's input. */
  inputSchema: Record<string, unknown>;
}

/** One LLM request. */
export interface LlmRequest {
  /** The system prompt, this run's instructions included. */
  system: string;
  /** This run's instructions (a `/workflow`'s body), already in `system`: for providers that show them. */
  instructions?: readonly string[];
  items: readonly HistoryItem[];
  tools: readonly ToolDefinition[];
  signal: AbortSignal;
}

/**
 * What a provider streams back, normalised across providers. The pod maps these to wire events
 * (`text_delta`, `tool_call_*`, `usage`). A provider may send `tool-call-done` without a start
 * (OpenAI-style streams): the pod fills the gaps.
 */
export type ProviderPart =
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call-start'; id: string; name: string }
  | { type: 'tool-call-delta'; id: string; delta: string }
  | { type: 'tool-call-done'; id: string; name: string; arguments: string }
  /** `input_tokens` is the whole prompt occupancy (cache reads and writes included). */
  | { type: 'usage'; input_tokens?: number; output_tokens?: number }
  | { type: 'finish'; reason: 'stop' | 'tool-calls' | 'length' | 'other' }
  | { type: 'error'; message: string };

/** An LLM backend. Created per pod by a `providers.for(name)` tap. */
export interface Provider {
  /** Wire name for the greeting (`echo`, `anthropic`, `openai-compatible`). */
  readonly name: string;
  readonly model: string;
  /** Streams one reply. Must stop promptly when `request.signal` aborts. */
  stream(request: LlmRequest): AsyncIterable<ProviderPart>;
  /** Releases sockets/timers at pod shutdown. */
  close?(): Promise<void>;
}

/** Passed to provider factories. */
export interface ProviderContext {
  /** The pod the provider serves (absent when a provider is made outside a pod). */
  readonly podName?: string;
  readonly projectDir: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * What a provider's stream iterator may offer besides `next()`: `takeBuffered()` hands out the
 * next part the provider already holds, without a promise (`undefined` when it holds none: the
 * pod then awaits `next()` again). A reply that is all in memory (the scripted provider) is
 * read without a microtask per part. Parts come in one order whichever way they are taken.
 * @beta
 */
export interface BufferedPartIterator extends AsyncIterator<ProviderPart> {
  takeBuffered(): ProviderPart | undefined;
}
