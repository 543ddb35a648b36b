// The streaming formats of the LLM APIs the fake servers speak, as raw SSE frames: OpenAI chat
// completions, OpenAI Responses and Anthropic messages. Plain JS so the benchmarks run on plain
// node; test/support/fakeLlmServer.ts re-exports the chat and messages writers (typed by
// llmStreams.d.ts).

/** One SSE frame; `data` is JSON-encoded unless it is a string. */
export const sse = (data, event) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** An OpenAI chat-completions stream: text with no block start, tool calls with no end. */
export function openAiStream(s) {
  const chunk = (delta, finish = null) =>
    sse({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'fake',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const out = [chunk({ role: 'assistant', content: '' })];
  for (const t of s.text ?? []) out.push(chunk({ content: t }));
  (s.toolCalls ?? []).forEach((c, index) => {
    out.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const a of c.args) out.push(chunk({ tool_calls: [{ index, function: { arguments: a } }] }));
  });
  if (s.noFinish) return out;
  out.push(chunk({}, s.toolCalls?.length ? 'tool_calls' : 'stop'));
  if (s.usage) {
    out.push(
      sse({
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'fake',
        choices: [],
        usage: {
          prompt_tokens: s.usage.input,
          completion_tokens: s.usage.output,
          total_tokens: s.usage.input + s.usage.output,
        },
      }),
    );
  }
  out.push(sse('[DONE]'));
  return out;
}

/** An Anthropic messages stream (message_start, content blocks, message_delta, message_stop). */
export function anthropicStream(s) {
  const u = s.usage ?? { input: 10, output: 5 };
  const out = [
    sse(
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-fake',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: u.input,
            output_tokens: 1,
            cache_read_input_tokens: u.cacheRead ?? 0,
            cache_creation_input_tokens: u.cacheWrite ?? 0,
          },
        },
      },
      'message_start',
    ),
  ];
  let index = 0;
  if (s.text?.length) {
    out.push(
      sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'),
    );
    for (const t of s.text)
      out.push(
        sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } }, 'content_block_delta'),
      );
    out.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  }
  for (const c of s.toolCalls ?? []) {
    out.push(
      sse(
        { type: 'content_block_start', index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } },
        'content_block_start',
      ),
    );
    for (const a of c.args)
      out.push(
        sse(
          { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: a } },
          'content_block_delta',
        ),
      );
    out.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  }
  if (s.noFinish) return out;
  out.push(
    sse(
      {
        type: 'message_delta',
        delta: { stop_reason: s.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: u.output },
      },
      'message_delta',
    ),
  );
  out.push(sse({ type: 'message_stop' }, 'message_stop'));
  return out;
}

/**
 * An OpenAI Responses stream of one assistant message (text only): response.created, the
 * message item added, its output_text deltas, the item done with the whole text, and
 * response.completed with the usage (Codex's `wire_api = "responses"`).
 */
export function responsesStream(s) {
  const u = s.usage ?? { input: 10, output: 5 };
  const text = (s.text ?? []).join('');
  const response = (status, extra = {}) => ({
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    model: 'fake',
    status,
    output: [],
    ...extra,
  });
  const item = (status, content) => ({ id: 'msg_1', type: 'message', role: 'assistant', status, content });
  const part = (t) => ({ type: 'output_text', text: t, annotations: [] });
  let seq = 0;
  const ev = (type, data) => sse({ type, sequence_number: seq++, ...data }, type);
  const out = [
    ev('response.created', { response: response('in_progress') }),
    ev('response.output_item.added', { output_index: 0, item: item('in_progress', []) }),
    ev('response.content_part.added', { item_id: 'msg_1', output_index: 0, content_index: 0, part: part('') }),
  ];
  for (const t of s.text ?? [])
    out.push(ev('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: t }));
  if (s.noFinish) return out;
  out.push(ev('response.output_text.done', { item_id: 'msg_1', output_index: 0, content_index: 0, text }));
  out.push(ev('response.content_part.done', { item_id: 'msg_1', output_index: 0, content_index: 0, part: part(text) }));
  const done = item('completed', [part(text)]);
  out.push(ev('response.output_item.done', { output_index: 0, item: done }));
  out.push(
    ev('response.completed', {
      response: response('completed', {
        output: [done],
        usage: {
          input_tokens: u.input,
          input_tokens_details: { cached_tokens: u.cacheRead ?? 0 },
          output_tokens: u.output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: u.input + u.output,
        },
      }),
    }),
  );
  return out;
}
