import { countItemsTokens, type HistoryItem, type LlmRequest, type ProviderPart } from '../../core/api.js';

/**
 * What the echo provider answers: every context item given since the model's last reply, one
 * `[<role>] <text>` line each (role user, system or tool), so the resolved context of a run is
 * visible from any client; a run's instructions (a `/workflow`'s body, which goes to the system
 * prompt) follow its user message as `[instruction] <text>` lines.
 */
export function echoText(items: readonly HistoryItem[], instructions: readonly string[] = []): string {
  let start = items.length;
  while (
    start > 0 &&
    !(items[start - 1].type === 'message' && (items[start - 1] as { role: string }).role === 'assistant') &&
    items[start - 1].type !== 'tool_call'
  )
    start--;
  const lines: string[] = [];
  for (const item of items.slice(start)) {
    if (item.type === 'message') lines.push(`[${item.role}] ${item.content.map((p) => p.text).join('')}`);
    else if (item.type === 'tool_result')
      lines.push(`[tool] ${item.content !== undefined ? `${item.summary}\n${item.content}` : item.summary}`);
    if (item.type === 'message' && item.role === 'user')
      for (const text of instructions) lines.push(`[instruction] ${text}`);
  }
  return lines.length > 0 ? lines.join('\n') : '[echo] nothing new since the last reply';
}

/** Splits text into streaming chunks: per line, long lines in pieces of `size` characters. */
export function chunkText(text: string, size = 64): string[] {
  const chunks: string[] = [];
  for (const line of text.split(/(?<=\n)/)) {
    for (let i = 0; i < line.length; i += size) chunks.push(line.slice(i, i + size));
  }
  return chunks;
}

/** Streams the echo answer to `request`, with usage estimated from the context size. */
export async function* echoStream(request: LlmRequest): AsyncGenerator<ProviderPart> {
  const text = echoText(request.items, request.instructions);
  const chunks = chunkText(text);
  for (let i = 0; i < chunks.length; i++) {
    // Like a network stream, let the pod read other clients' methods (a cancel) between chunks.
    if (i % 64 === 63) await new Promise((r) => setImmediate(r));
    if (request.signal.aborted) return;
    yield { type: 'text-delta', text: chunks[i] };
  }
  const input = await countItemsTokens(request.items, request.system, request.signal);
  yield { type: 'usage', input_tokens: input, output_tokens: Math.ceil(text.length / 4) };
  yield { type: 'finish', reason: 'stop' };
}
