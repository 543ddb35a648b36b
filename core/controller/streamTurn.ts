import type { EventBus } from '../bus/EventBus.js';
import type { LlmRequest, Provider, ProviderPart } from '../provider/Provider.js';
import { consumeProviderStream } from '../provider/consumeProviderStream.js';
import { ProviderError } from '../provider/providerErrors.js';
import { emptyArray } from '../util/emptyArray.js';

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

/**
 * Streams one LLM request and broadcasts it as wire events. Every provider's text becomes
 * `text_delta`s and one `text_done`, even streams that never announce a text block; a tool call
 * that arrives without a start, or never gets a done (OpenAI-style streams), is completed here,
 * so no call is lost. Usage is merged over the stream; one `usage` event follows the stream.
 */
export async function streamTurn(provider: Provider, request: LlmRequest, bus: EventBus): Promise<TurnOutput> {
  const texts: string[] = emptyArray(); // the text so far, in order, in pieces of up to PIECE deltas
  let recent: string[] = emptyArray(); // the latest deltas, not yet joined into a piece of `texts`
  let blockStart = 0; // index in `texts` of the current text block's first piece
  let held = ''; // a high surrogate whose low half has not arrived: never sent alone
  const calls = new Map<string, { name: string; args: string; done: boolean }>();
  const order: string[] = [];
  const usage: TurnOutput['usage'] = {};

  // Joined every PIECE deltas (not per token, which would be a rope; not once at the end, which
  // would keep a string object per token alive for the whole reply).
  const joinRecent = () => {
    if (recent.length === 0) return;
    texts.push(recent.length === 1 ? recent[0] : recent.join(''));
    recent = emptyArray();
  };
  const endBlock = () => {
    if (held !== '') emitText('');
    joinRecent();
    if (blockStart === texts.length) return;
    bus.broadcast({ event: 'text_done', data: { text: texts.slice(blockStart).join('') } });
    blockStart = texts.length;
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

  await consumeProviderStream(provider, request, handle);
  endBlock();
  for (const id of order) finish(id);
  return {
    text: texts.join(''),
    toolCalls: order.map((id) => ({ id, name: calls.get(id)!.name, arguments: calls.get(id)!.args })),
    usage,
  };

  /** A delta split inside a surrogate pair would put a lone `\ud83d` on the wire (serde rejects it). */
  function emitText(delta: string): void {
    let t = held + delta;
    held = '';
    const last = t.charCodeAt(t.length - 1);
    if (delta !== '' && last >= 0xd800 && last <= 0xdbff) {
      held = t.slice(-1);
      t = t.slice(0, -1);
    }
    if (t === '') return;
    recent.push(t);
    if (recent.length >= PIECE) joinRecent();
    bus.broadcast({ event: 'text_delta', data: { text: t } });
  }

  function handle(part: ProviderPart): void {
    switch (part.type) {
      case 'text-delta':
        emitText(part.text);
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

/** Deltas joined into one piece of a turn's text. */
const PIECE = 256;

function normaliseArguments(args: string): string {
  if (args.trim() === '') return '{}';
  try {
    const v = JSON.parse(args);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : '{}';
  } catch {
    return '{}';
  }
}
