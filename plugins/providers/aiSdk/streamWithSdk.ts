import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { describeSdkError, type ErrorHints } from './describeSdkError.js';
import { IdleClock } from './IdleClock.js';
import { retryRequest } from './retryRequest.js';
import type { LlmRequest, ProviderPart } from '../../../core/api.js';

/** The model of a provider package (`createOpenAICompatible(...).chatModel(id)`, `createAnthropic(...)(id)`). */
export type SdkModel = LanguageModelV3;

type SystemMessage = Extract<LanguageModelV3Message, { role: 'system' }>;

export interface SdkStreamOptions extends ErrorHints {
  /** The provider plugin's name; every error line starts with it. */
  readonly plugin: string;
  /** The model, making its HTTP requests with `fetch` (which keeps the idle clock). */
  readonly model: (fetch: typeof globalThis.fetch) => SdkModel;
  readonly system: string | SystemMessage | undefined;
  readonly messages: LanguageModelV3Message[];
  /** Retries of the request (408, 409, 429, 5xx, connection failures before the response), with backoff. */
  readonly maxRetries: number;
  /** Longest silence (waiting for the response, then between chunks; not a retry's backoff) before giving up. */
  readonly timeoutMs: number;
  readonly maxOutputTokens?: number;
}

/**
 * Streams one request through the provider package's model (`doStream`) and yields normalised
 * parts. The pod runs its own tool loop, so the AI SDK's `streamText` would only add layers of
 * web streams and per-part bookkeeping on the way (twice the CPU per chunk of the model's stream
 * alone, bench/provider-overhead); what it did that matters is done here: the request is retried
 * as it retries it (`retryRequest`), and the parts are mapped the same way. An abort of
 * `request.signal` stops the HTTP stream at once and ends quietly. Silence longer than
 * `timeoutMs` aborts the request too (the wait before a retry is not silence: `IdleClock`).
 * Every failure becomes one `error` part.
 */
export async function* streamWithSdk(request: LlmRequest, opts: SdkStreamOptions): AsyncGenerator<ProviderPart> {
  const idle = new AbortController();
  const clock = new IdleClock(opts.timeoutMs, () => idle.abort(new DOMException('idle timeout', 'TimeoutError')));
  const signal = AbortSignal.any([request.signal, idle.signal]);
  const failure = (error: unknown): ProviderPart => ({
    type: 'error',
    message: clock.timedOut
      ? `${opts.plugin}: no response for ${opts.timeoutMs} ms (model.timeoutMs); the request was abandoned`
      : `${opts.plugin}: ${describeSdkError(error, opts)}`,
  });
  let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
  try {
    const model = opts.model(clock.wrap((input, init) => globalThis.fetch(input, init)));
    const tools = toolDefs(request);
    const call: LanguageModelV3CallOptions = {
      prompt: prompt(opts.system, opts.messages),
      tools,
      toolChoice: tools ? { type: 'auto' } : undefined,
      maxOutputTokens: opts.maxOutputTokens,
      abortSignal: signal,
      includeRawChunks: false,
    };
    try {
      reader = (await retryRequest(() => model.doStream(call), opts.maxRetries, signal)).stream.getReader();
    } catch (error) {
      if (!request.signal.aborted) yield failure(error);
      return;
    }
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        // A body cut mid-stream, or the abort, rejects the read.
        if (!request.signal.aborted) yield failure(error);
        return;
      }
      if (next.done) break;
      const part = next.value;
      clock.refresh();
      switch (part.type) {
        case 'text-delta':
          if (part.delta !== '') yield { type: 'text-delta', text: part.delta };
          break;
        case 'tool-input-start':
          yield { type: 'tool-call-start', id: part.id, name: part.toolName };
          break;
        case 'tool-input-delta':
          yield { type: 'tool-call-delta', id: part.id, delta: part.delta };
          break;
        case 'tool-call':
          // JSON text as the model sent it; the controller normalises it.
          yield { type: 'tool-call-done', id: part.toolCallId, name: part.toolName, arguments: part.input };
          break;
        case 'finish':
          yield {
            type: 'usage',
            input_tokens: part.usage.inputTokens.total,
            output_tokens: part.usage.outputTokens.total,
          };
          yield { type: 'finish', reason: finishReason(part.finishReason.unified) };
          break;
        case 'error':
          if (!request.signal.aborted) yield failure(part.error);
          return;
      }
    }
  } finally {
    clock.disarm();
    idle.abort(); // the consumer stopped early: release the HTTP stream
    reader?.releaseLock();
  }
}

/**
 * Imports a provider package on the first request (the SDK is heavy: commands that never talk
 * to a model stay fast). The SDK prints its warnings (unknown model, unsupported setting) on the
 * console of every request: a pod's stdout/stderr belong to its operator, so they are off unless
 * the user set `AI_SDK_LOG_WARNINGS` already.
 */
export async function loadSdk<P>(provider: () => Promise<P>): Promise<P> {
  const g = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  if (g.AI_SDK_LOG_WARNINGS === undefined) g.AI_SDK_LOG_WARNINGS = false;
  return provider();
}

/** The system prompt first, then the conversation: the language-model prompt of one request. */
function prompt(system: SdkStreamOptions['system'], messages: LanguageModelV3Message[]): LanguageModelV3Message[] {
  if (system === undefined) return messages;
  const first: LanguageModelV3Message = typeof system === 'string' ? { role: 'system', content: system } : system;
  return [first, ...messages];
}

/** The request's tools as function tools with JSON Schema inputs (the pod runs them). */
function toolDefs(request: LlmRequest): LanguageModelV3FunctionTool[] | undefined {
  if (request.tools.length === 0) return undefined;
  return request.tools.map((def) => {
    const { $schema: _drop, ...inputSchema } = def.inputSchema; // some servers reject the meta-schema key
    return { type: 'function', name: def.name, description: def.description, inputSchema };
  });
}

function finishReason(reason: string): 'stop' | 'tool-calls' | 'length' | 'other' {
  return reason === 'stop' || reason === 'tool-calls' || reason === 'length' ? reason : 'other';
}
