import { describe, expect, it } from '@jest/globals';
import type { Block } from '../../../cli/attach/Block.js';
import {
  emptyTranscript,
  formatTokens,
  reduceEvents,
  reduceTranscript,
  type TranscriptState,
} from '../../../cli/attach/transcriptReducer.js';
import type { Event, Segment } from '../../../core/protocol/index.js';

const greeting = { pod_name: 'p', cwd: '/', provider: 'echo', model: 'echo', scope_summary: '', tools: [] };
const apply = (events: Event[], state: TranscriptState = emptyTranscript) => events.reduce(reduceTranscript, state);
const shape = (blocks: readonly Block[]) => blocks.map(({ id: _id, ...rest }) => rest);
const alert = (message: string, ts = 1): Event => ({
  event: 'alert',
  data: { level: 'warn', source: 'pod', message, timestamp_ms: ts },
});
const msg = (role: string, text: string) => ({ type: 'message', role, content: [{ type: 'text', text }] });

const typed: Segment[] = [
  { kind: 'text', content: 'see ' },
  { kind: 'paste', id: 3, chars: 5, lines: 2, content: 'a\nbcd' },
  { kind: 'file_ref', path: 'README.md' },
];

describe('the transcript reducer', () => {
  it('builds a user block from typed segments, streams assistant text, and sums usage per run', () => {
    const s = apply([
      {
        event: 'welcome',
        data: {
          protocol_version: 2,
          pod_name: 'p',
          session_id: 's1',
          status: 'idle',
          segment_kinds: [],
          pod_event_kinds: [],
        },
      },
      { event: 'status', data: { status: 'running', session_id: 's1' } },
      { event: 'user_message', data: { segments: typed } },
      { event: 'turn_start', data: { turn: 0 } },
      { event: 'text_delta', data: { text: 'Hel' } },
      { event: 'text_delta', data: { text: 'lo' } },
      { event: 'text_done', data: { text: 'Hello' } },
      { event: 'usage', data: { input_tokens: 1200, output_tokens: 5 } },
      { event: 'turn_end', data: { turn: 0, result: 'finished' } },
      { event: 'turn_start', data: { turn: 1 } },
      { event: 'text_delta', data: { text: 'again' } },
      { event: 'usage', data: { input_tokens: 1300, output_tokens: 7 } },
      { event: 'run_end', data: { result: 'finished' } },
    ]);
    expect(shape(s.blocks)).toEqual([
      { kind: 'user', segments: typed },
      { kind: 'assistant', text: 'Hello', done: true },
      { kind: 'assistant', text: 'again', done: false },
      { kind: 'note', tone: 'stats', text: '2 requests · ↑1.3k ↓12', keep: false },
    ]);
    expect([s.podName, s.sessionId, s.status, s.usage]).toEqual([
      'p',
      's1',
      'running',
      { requests: 2, context: 1300, output: 12 },
    ]);
  });

  it('follows a tool call from start to result, and marks calls that never ran as incomplete', () => {
    const s = apply([
      { event: 'tool_call_start', data: { id: 'c1', name: 'Read' } },
      { event: 'tool_call_args_delta', data: { id: 'c1', json: '{"pa' } },
      { event: 'tool_call_args_delta', data: { id: 'c1', json: 'th":"x"}' } },
      { event: 'tool_call_done', data: { id: 'c1', name: 'Read', arguments: '{"path":"x"}' } },
      { event: 'tool_call_start', data: { id: 'c2', name: 'Grep' } },
      { event: 'turn_end', data: { turn: 0, result: 'finished' } },
      { event: 'tool_result', data: { id: 'c1', summary: 'Read 3 bytes', output: 'abc', is_error: false } },
      { event: 'tool_call_start', data: { id: 'c3', name: 'Edit' } },
      { event: 'tool_call_done', data: { id: 'c3', name: 'Edit', arguments: '{}' } },
      { event: 'tool_result', data: { id: 'c3', summary: 'no such file', output: undefined, is_error: true } },
    ]);
    expect(shape(s.blocks)).toEqual([
      {
        kind: 'tool',
        callId: 'c1',
        name: 'Read',
        args: '{"path":"x"}',
        state: 'done',
        summary: 'Read 3 bytes',
        output: 'abc',
      },
      { kind: 'tool', callId: 'c2', name: 'Grep', args: '', state: 'incomplete' },
      {
        kind: 'tool',
        callId: 'c3',
        name: 'Edit',
        args: '{}',
        state: 'error',
        summary: 'no such file',
        output: undefined,
      },
    ]);
  });

  it('shows errors with their code, compaction as status lines, and follows the new session id', () => {
    const s = apply([
      { event: 'error', data: { code: 'provider_error', message: 'rate limited' } },
      { event: 'compact_start' },
      { event: 'compact_failed', data: { error: 'summary too long' } },
      { event: 'compact_start' },
      { event: 'compact_done', data: { new_session_id: '0192f0e8-4d84-7d6e-a000-000000000001' } },
      { event: 'run_end', data: { result: 'cancelled' } },
    ]);
    expect(s.blocks.map((b) => b.kind === 'note' && `${b.tone}: ${b.text}`)).toEqual([
      'error: [error provider_error] rate limited',
      'compact: [compact] starting',
      'compact-error: [compact error] summary too long',
      'compact: [compact] starting',
      'compact: [compact] done (new session 0192f0e8)',
      'stats: 0 requests · ↑? ↓0 · cancelled',
    ]);
    expect(s.sessionId).toBe('0192f0e8-4d84-7d6e-a000-000000000001');
  });

  it('keeps alerts (once each) across history reloads, and rebuilds chips for user items it saw typed', () => {
    let s = apply([
      alert('replayed'),
      alert('replayed'),
      { event: 'user_message', data: { segments: typed } },
      { event: 'text_delta', data: { text: 'partial' } },
    ]);
    s = reduceTranscript(s, {
      event: 'history',
      data: {
        greeting,
        items: [
          msg('user', 'typed before this client came'),
          msg('assistant', 'old answer'),
          msg('user', 'see a\nbcd'),
          msg('system', '[File: README.md]\n# Demo'),
          { type: 'tool_call', call_id: 'k', name: 'Read', arguments: '{}' },
          { type: 'tool_result', call_id: 'k', summary: 'failed', is_error: true },
        ],
      },
    });
    s = apply([alert('replayed'), alert('new', 2)], s);
    expect(shape(s.blocks)).toEqual([
      { kind: 'user', text: 'typed before this client came' },
      { kind: 'assistant', text: 'old answer', done: true },
      { kind: 'user', segments: typed },
      { kind: 'context', text: '[File: README.md]\n# Demo' },
      { kind: 'tool', callId: 'k', name: 'Read', args: '{}', state: 'error', summary: 'failed', output: undefined },
      { kind: 'note', tone: 'alert', text: '[notice] pod: replayed', keep: true },
      { kind: 'note', tone: 'alert', text: '[notice] pod: new', keep: true },
    ]);
    // After the rebuild, deltas start a new assistant block instead of appending to a dropped one.
    expect(shape(reduceTranscript(s, { event: 'text_delta', data: { text: 'x' } }).blocks).at(-1)).toEqual({
      kind: 'assistant',
      text: 'x',
      done: false,
    });
  });

  it('matches a typed message whose unresolved references left placeholders in the history text', () => {
    const segments: Segment[] = [
      { kind: 'text', content: 'look ' },
      { kind: 'knowledge_ref', slug: 'nope' },
    ];
    const s = apply([
      { event: 'user_message', data: { segments } },
      { event: 'history', data: { greeting, items: [msg('user', 'look [unresolved knowledge_ref: nope]')] } },
    ]);
    expect(shape(s.blocks)).toEqual([{ kind: 'user', segments }]);
  });

  it('joins a burst of deltas into one update with the same result', () => {
    const events: Event[] = [{ event: 'turn_start', data: { turn: 0 } }];
    for (let i = 0; i < 10_000; i++) events.push({ event: 'text_delta', data: { text: `${i % 10}` } });
    events.push(alert('mid'), { event: 'text_delta', data: { text: 'end' } });
    const batched = reduceEvents(emptyTranscript, events);
    const oneByOne = apply(events);
    expect(shape(batched.blocks)).toEqual(shape(oneByOne.blocks));
    const text = (batched.blocks[0] as { text: string }).text;
    expect([text.length, text.slice(-4), batched.blocks.length]).toEqual([10_003, '9end', 2]);
  });

  it('formats token counts compactly', () => {
    expect([null, 999, 1000, 1234, 56_789, 2_500_000].map(formatTokens)).toEqual([
      '?',
      '999',
      '1k',
      '1.2k',
      '56.8k',
      '2.5M',
    ]);
  });
});
