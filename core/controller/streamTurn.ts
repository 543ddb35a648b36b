import type { EventBus } from '../bus/EventBus.js';
import type { LlmRequest, Provider, ProviderPart } from '../provider/Provider.js';

/** A tool call as the model made it. */
export interface ModelToolCall {
  id: string;
  name: string;
  /** JSON text; `{}` when the model's arguments were not valid JSON (as the original did). */
  arguments: string;
}

export interface TurnOutput {
  text: string;
  toolCalls: ModelToolCall[];
  usage: { input_tokens?: number; output_tokens?: number };
}

/** The provider reported an error for this request. */
export class ProviderError extends Error {
  override name = 'ProviderError';
}

/** The run was paused or cancelled while streaming. */
export class AbortedError extends Error {
  override name = 'AbortedError';
}

/**
 * Streams one LLM request and broadcasts it as wire events. Every provider's text becomes
 * `text_delta`s and one `text_done`, even streams that never announce a text block; a tool call
 * that arrives without a start, or never gets a done (OpenAI-style streams), is completed here,
 * so no call is lost. Usage is merged over the stream; one `usage` event follows the stream.
 */
export async function streamTurn(provider: Provider, request: LlmRequest, bus: EventBus): Promise<TurnOutput> {
  const { signal } = request;
  let text = '';
  let block = ''; // text since the last text_done: one text block
  const calls = new Map<string, { name: string; args: string; done: boolean }>();
  const order: string[] = [];
  const usage: TurnOutput['usage'] = {};

  const endBlock = () => {
    if (block === '') return;
    bus.broadcast({ event: 'text_done', data: { text: block } });
    block = '';
  };
  const start = (id: string, name: string) => {
    if (calls.has(id)) return calls.get(id)!;
    endBlock();
    const call = { name, args: '', done: false };
    calls.set(id, call);
    order.push(id);
    bus.broadcast({ event: 'tool_call_start', data: { id, name } });
    return call;
  };
  const finish = (id: string) => {
    const call = calls.get(id)!;
    if (call.done) return;
    call.done = true;
    call.args = normaliseArguments(call.args);
    bus.broadcast({ event: 'tool_call_done', data: { id, name: call.name, arguments: call.args } });
  };

  if (signal.aborted) throw new AbortedError('aborted');
  // Race every read against the abort: a provider that ignores the signal cannot hold the run.
  const iterator = provider.stream(request)[Symbol.asyncIterator]();
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new AbortedError('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    for (;;) {
      let next: IteratorResult<ProviderPart>;
      try {
        next = await Promise.race([iterator.next(), aborted]);
      } catch (e) {
        if (e instanceof AbortedError || e instanceof ProviderError) throw e;
        throw new ProviderError((e as Error)?.message ?? String(e));
      }
      if (next.done) break;
      handle(next.value);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (signal.aborted) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
  if (signal.aborted) throw new AbortedError('aborted');
  endBlock();
  for (const id of order) finish(id);
  return { text, toolCalls: order.map((id) => ({ id, name: calls.get(id)!.name, arguments: calls.get(id)!.args })), usage };

  function handle(part: ProviderPart): void {
    switch (part.type) {
      case 'text-delta':
        if (part.text === '') break;
        text += part.text;
        block += part.text;
        bus.broadcast({ event: 'text_delta', data: { text: part.text } });
        break;
      case 'tool-call-start':
        start(part.id, part.name);
        break;
      case 'tool-call-delta': {
        const call = calls.get(part.id) ?? start(part.id, 'unknown');
        call.args += part.delta;
        bus.broadcast({ event: 'tool_call_args_delta', data: { id: part.id, json: part.delta } });
        break;
      }
      case 'tool-call-done': {
        const call = start(part.id, part.name);
        if (part.name && call.name === 'unknown') call.name = part.name;
        if (part.arguments !== '' || call.args === '') call.args = part.arguments;
        finish(part.id);
        break;
      }
      case 'usage':
        if (part.input_tokens !== undefined) usage.input_tokens = part.input_tokens;
        if (part.output_tokens !== undefined) usage.output_tokens = part.output_tokens;
        break;
      case 'error':
        throw new ProviderError(part.message);
      case 'finish':
        break;
    }
  }
}

function normaliseArguments(args: string): string {
  if (args.trim() === '') return '{}';
  try {
    const v = JSON.parse(args);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : '{}';
  } catch {
    return '{}';
  }
}
