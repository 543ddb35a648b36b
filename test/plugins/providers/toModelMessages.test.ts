import { describe, expect, it } from '@jest/globals';
import { messageItem, type HistoryItem } from '../../../core/history/HistoryItem.js';
import { NO_RESULT, toModelMessages } from '../../../plugins/providers/aiSdk/toModelMessages.js';

const call = (id: string, name = 'Read', args = '{"file_path":"a"}'): HistoryItem => ({
  type: 'tool_call',
  call_id: id,
  name,
  arguments: args,
});
const result = (
  id: string,
  summary: string,
  extra: Partial<Extract<HistoryItem, { type: 'tool_result' }>> = {},
): HistoryItem => ({ type: 'tool_result', call_id: id, summary, ...extra });

describe('toModelMessages', () => {
  it('groups text and calls into one assistant message and results into one tool message', () => {
    const items = [
      messageItem('user', 'hi'),
      messageItem('assistant', 'reading'),
      call('1'),
      call('2', 'Grep', 'not json'),
      result('1', 'Read 1 line', { content: 'x' }),
      result('2', 'bad', { is_error: true }),
    ];
    expect(toModelMessages(items, { systemItemsAs: 'system' })).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'reading' },
          { type: 'tool-call', toolCallId: '1', toolName: 'Read', input: { file_path: 'a' } },
          { type: 'tool-call', toolCallId: '2', toolName: 'Grep', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: '1', toolName: 'Read', output: { type: 'text', value: 'Read 1 line\nx' } },
          { type: 'tool-result', toolCallId: '2', toolName: 'Grep', output: { type: 'error-text', value: 'bad' } },
        ],
      },
    ]);
  });

  it('closes calls that never got a result, drops results without a call and empty messages', () => {
    const items = [
      messageItem('user', 'hi'),
      call('1'),
      call('2'),
      result('2', 'ok'),
      result('ghost', 'lost'),
      messageItem('assistant', ''),
      messageItem('system', 'note'),
      messageItem('user', 'next'),
    ];
    expect(toModelMessages(items, { systemItemsAs: 'user' })).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: '1', toolName: 'Read', input: { file_path: 'a' } },
          { type: 'tool-call', toolCallId: '2', toolName: 'Read', input: { file_path: 'a' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: '2', toolName: 'Read', output: { type: 'text', value: 'ok' } },
          { type: 'tool-result', toolCallId: '1', toolName: 'Read', output: { type: 'error-text', value: NO_RESULT } },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'note' }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ]);
  });

  it('puts cache breakpoints before the newest user message and on the last message', () => {
    const cache = { anthropic: { cacheControl: { type: 'ephemeral' } } };
    const out = toModelMessages(
      [messageItem('user', 'a'), messageItem('assistant', 'b'), messageItem('user', 'c'), messageItem('system', 'ctx')],
      { systemItemsAs: 'user', cacheBreakpoint: cache },
    );
    expect(out.map((m) => m.providerOptions)).toEqual([undefined, cache, undefined, cache]);
    const single = toModelMessages([messageItem('user', 'only')], { systemItemsAs: 'user', cacheBreakpoint: cache });
    expect(single.map((m) => m.providerOptions)).toEqual([cache]);
  });
});
