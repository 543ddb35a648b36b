import type { LanguageModel, ModelMessage, SystemModelMessage, ToolSet } from 'ai';
import { describeSdkError, type ErrorHints } from './describeSdkError.js';
import { IdleClock } from './IdleClock.js';
import type { LlmRequest, ProviderPart } from '../../../core/api.js';

type Ai = typeof import('ai');

export interface SdkStreamOptions extends ErrorHints {
  /** The provider plugin's name; every error line starts with it. */
  readonly plugin: string;
  readonly ai: Ai;
  /** The model, making its HTTP requests with `fetch` (which keeps the idle clock). */
  readonly model: (fetch: typeof globalThis.fetch) => LanguageModel;
  readonly system: string | SystemModelMessage | undefined;
  readonly messages: ModelMessage[];
  /** Retries of the request (429, 5xx, connection failures before the response), with backoff. */
  readonly maxRetries: number;
  /** Longest silence (waiting for the response, then between chunks; not a retry's backoff) before giving up. */
  readonly timeoutMs: number;
  readonly maxOutputTokens?: number;
}

/**
 * Streams one request through the AI SDK's `streamText` and yields normalised parts. The SDK
 * retries failed requests (honouring `retry-after`); an abort of `request.signal` stops the
 * HTTP stream at once (the SDK then ends with an `abort` part, not a throw). Silence longer
 * than `timeoutMs` aborts the request too — the SDK's own `chunkMs` starts only at the first
 * chunk and `totalMs` would cut long replies; the wait before a retry is not silence
 * (`IdleClock`). Every failure becomes one `error` part.
 */
export async function* streamWithSdk(request: LlmRequest, opts: SdkStreamOptions): AsyncGenerator<ProviderPart> {
  const { ai } = opts;
  const idle = new AbortController();
  const clock = new IdleClock(opts.timeoutMs, () => idle.abort(new DOMException('idle timeout', 'TimeoutError')));
  const timeoutMessage = () =>
    `${opts.plugin}: no response for ${opts.timeoutMs} ms (model.timeoutMs); the request was abandoned`;
  try {
    const result = ai.streamText({
      model: opts.model(clock.wrap((input, init) => globalThis.fetch(input, init))),
      system: opts.system,
      messages: opts.messages,
      allowSystemInMessages: true,
      tools: toolSet(ai, request),
      maxRetries: opts.maxRetries,
      maxOutputTokens: opts.maxOutputTokens,
      abortSignal: AbortSignal.any([request.signal, idle.signal]),
      onError: () => undefined, // reported as an `error` part below, never printed
    });
    const parts = result.fullStream[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<typeof result.fullStream extends AsyncIterable<infer P> ? P : never>;
      try {
        next = await parts.next();
      } catch (error) {
        // Some failures (a body cut mid-stream) reject the read instead of giving an error part.
        if (request.signal.aborted) return;
        yield {
          type: 'error',
          message: clock.timedOut ? timeoutMessage() : `${opts.plugin}: ${describeSdkError(error, opts)}`,
        };
        return;
      }
      if (next.done) break;
      const part = next.value;
      clock.refresh();
      switch (part.type) {
        case 'text-delta':
          if (part.text !== '') yield { type: 'text-delta', text: part.text };
          break;
        case 'tool-input-start':
          yield { type: 'tool-call-start', id: part.id, name: part.toolName };
          break;
        case 'tool-input-delta':
          yield { type: 'tool-call-delta', id: part.id, delta: part.delta };
          break;
        case 'tool-call':
          yield {
            type: 'tool-call-done',
            id: part.toolCallId,
            name: part.toolName,
            arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {}),
          };
          break;
        case 'finish':
          yield {
            type: 'usage',
            input_tokens: part.totalUsage.inputTokens,
            output_tokens: part.totalUsage.outputTokens,
          };
          yield { type: 'finish', reason: finishReason(part.finishReason) };
          break;
        case 'error':
          yield {
            type: 'error',
            message: clock.timedOut ? timeoutMessage() : `${opts.plugin}: ${describeSdkError(part.error, opts)}`,
          };
          return;
        case 'abort':
          if (clock.timedOut) yield { type: 'error', message: timeoutMessage() };
          return;
      }
    }
  } finally {
    clock.disarm();
    idle.abort(); // the consumer stopped early: release the HTTP stream
  }
}

/**
 * Imports `ai` and then a provider package, one after the other: the SDK is heavy, so it is
 * loaded on the first request only, and sequentially because concurrent first imports of
 * their shared dependencies trip module loaders (jest's ESM linker among them).
 */
export async function loadSdk<P>(provider: () => Promise<P>): Promise<[Ai, P]> {
  const ai = await import('ai');
  // The SDK prints its warnings (unknown model, unsupported setting) on the console of every
  // request: a pod's stdout/stderr belong to its operator. Kept if the user set it already.
  const g = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  if (g.AI_SDK_LOG_WARNINGS === undefined) g.AI_SDK_LOG_WARNINGS = false;
  return [ai, await provider()];
}

/** The request's tools for the SDK: JSON Schema inputs, no `execute` (the pod runs tools). */
function toolSet(ai: Ai, request: LlmRequest): ToolSet | undefined {
  if (request.tools.length === 0) return undefined;
  const tools: ToolSet = {};
  for (const def of request.tools) {
    const { $schema: _drop, ...schema } = def.inputSchema; // some servers reject the meta-schema key
    tools[def.name] = ai.tool({ description: def.description, inputSchema: ai.jsonSchema(schema) });
  }
  return tools;
}

function finishReason(reason: string): 'stop' | 'tool-calls' | 'length' | 'other' {
  return reason === 'stop' || reason === 'tool-calls' || reason === 'length' ? reason : 'other';
}
