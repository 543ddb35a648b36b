import { describe, expect, it } from '@jest/globals';
import { EventTranslator } from '../../../cli/acp/EventTranslator.js';
import { historyUpdates } from '../../../cli/acp/historyUpdates.js';
import type { Event } from '../../../core/protocol/index.js';

const ev = (e: unknown) => e as Event;

describe('pod events as ACP session updates', () => {
  it('the tool call lifecycle: start → args (title, kind, locations, an Edit diff) → result', () => {
    const t = new EventTranslator('/p');
    expect(t.translate(ev({ event: 'tool_call_start', seq: 1, data: { id: 'c1', name: 'Edit' } }))).toEqual([
      { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Edit', kind: 'edit', status: 'pending' },
    ]);
    const args = { file_path: 'src/a.ts', old_string: 'let a', new_string: 'const a' };
    expect(
      t.translate(
        ev({ event: 'tool_call_done', seq: 2, data: { id: 'c1', name: 'Edit', arguments: JSON.stringify(args) } }),
      ),
    ).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        title: 'Edit src/a.ts',
        kind: 'edit',
        status: 'in_progress',
        rawInput: args,
        locations: [{ path: '/p/src/a.ts' }],
        content: [{ type: 'diff', path: '/p/src/a.ts', oldText: 'let a', newText: 'const a' }],
      },
    ]);
    expect(t.openCallOf('Edit', args)).toEqual({ id: 'c1', title: 'Edit src/a.ts' });
    expect(
      t.translate(
        ev({
          event: 'tool_result',
          seq: 3,
          data: { id: 'c1', summary: 'Edited src/a.ts (1 replacements)', output: '  1\tconst a', is_error: false },
        }),
      ),
    ).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        status: 'completed',
        content: [
          { type: 'content', content: { type: 'text', text: 'Edited src/a.ts (1 replacements)\n  1\tconst a' } },
        ],
        rawOutput: { summary: 'Edited src/a.ts (1 replacements)', output: '  1\tconst a', is_error: false },
      },
    ]);
    expect(t.openCallOf('Edit', args)).toBeUndefined();
  });

  it('kinds by tool: read, edit, search, execute, other; MCP tools titled by server; Read offsets as lines', () => {
    const t = new EventTranslator('/p');
    const kindOf = (name: string, args: object) =>
      t.translate(ev({ event: 'tool_call_done', data: { id: name, name, arguments: JSON.stringify(args) } }))[0];
    expect(kindOf('Read', { file_path: '/abs/x', offset: 9 })).toMatchObject({
      kind: 'read',
      title: 'Read /abs/x',
      locations: [{ path: '/abs/x', line: 10 }],
    });
    expect(kindOf('Write', { file_path: 'w', content: '' })).toMatchObject({ kind: 'edit', content: [] });
    expect(kindOf('Grep', { pattern: 'TODO', path: 'src' })).toMatchObject({
      kind: 'search',
      title: 'Grep TODO',
      locations: [{ path: '/p/src' }],
    });
    expect(kindOf('Bash', { command: 'npm test\nrm -rf x' })).toMatchObject({
      kind: 'execute',
      title: 'Bash: npm test',
      locations: [],
    });
    expect(kindOf('mcp__docs__search', { q: 1 })).toMatchObject({ kind: 'other', title: 'docs: search' });
    expect(kindOf('SpawnPod', { name: 'helper' })).toMatchObject({ kind: 'other', title: 'SpawnPod helper' });
    expect(kindOf('Read', ['not', 'an', 'object'])).toMatchObject({ rawInput: {}, title: 'Read' });
  });

  it('text deltas are agent chunks; live alerts and notifications are agent messages; replayed alerts and replies are not updates', () => {
    const t = new EventTranslator('/p');
    expect(t.translate(ev({ event: 'text_delta', seq: 1, data: { text: 'hi' } }))).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } },
    ]);
    expect(
      t.translate(ev({ event: 'alert', data: { level: 'warn', source: 'pod', message: 'old', timestamp_ms: 1 } })),
    ).toEqual([]);
    const live = t.translate(
      ev({
        event: 'alert',
        seq: 2,
        data: { level: 'warn', source: 'pod', message: 'unresolved file_ref', timestamp_ms: 1 },
      }),
    );
    expect((live[0] as { content: { text: string } }).content.text).toContain('warn (pod): unresolved file_ref');
    const child = t.translate(
      ev({ event: 'notification', seq: 3, data: { source: 'pod_event', message: 'pod helper finished its turn' } }),
    );
    expect((child[0] as { content: { text: string } }).content.text).toContain(
      'child pod: pod helper finished its turn',
    );
    expect(t.translate(ev({ event: 'ack', request_id: 'r1', data: { method: 'run' } }))).toEqual([]);
    expect(t.translate(ev({ event: 'status', seq: 4, data: { status: 'idle', session_id: 's' } }))).toEqual([]);
  });

  it("another client's input is a user message; a result for a call never seen starts one", () => {
    const t = new EventTranslator('/p');
    expect(
      t.translate(
        ev({
          event: 'user_message',
          seq: 1,
          data: {
            segments: [
              { kind: 'text', content: 'from tmux' },
              { kind: 'file_ref', path: 'a.ts' },
            ],
          },
        }),
      ),
    ).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'from tmux' } },
      { sessionUpdate: 'user_message_chunk', content: { type: 'resource_link', uri: 'file:///p/a.ts', name: 'a.ts' } },
    ]);
    expect(
      t
        .translate(ev({ event: 'tool_result', seq: 2, data: { id: 'late', summary: 'x', is_error: true } }))
        .map((u) => u.sessionUpdate),
    ).toEqual(['tool_call', 'tool_call_update']);
  });

  it("MCP progress updates the call's title", () => {
    const t = new EventTranslator('/p');
    t.translate(ev({ event: 'tool_call_done', data: { id: 'm', name: 'mcp__ev__long', arguments: '{}' } }));
    expect(t.progress({ id: 'm', progress: 3, total: 10, message: 'indexing' })).toEqual([
      { sessionUpdate: 'tool_call_update', toolCallId: 'm', title: 'ev: long (3/10: indexing)' },
    ]);
    expect(t.progress({ id: 'unknown', progress: 1 })).toEqual([]);
    expect(t.progress('garbage')).toEqual([]);
  });

  it('history replays as user messages, replies, tool calls with their results and notifications; other system items are context', () => {
    const updates = historyUpdates(
      [
        {
          type: 'message',
          role: 'user',
          content: [{ type: 'text', text: 'look' }],
          segments: [
            { kind: 'text', content: 'look' },
            { kind: 'file_ref', path: 'a.ts' },
          ],
        },
        { type: 'message', role: 'system', content: [{ type: 'text', text: '[File: a.ts]\nbody' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Reading.' }] },
        { type: 'tool_call', call_id: 'c', name: 'Read', arguments: '{"file_path":"a.ts"}' },
        { type: 'tool_result', call_id: 'c', summary: 'Read 1 lines from a.ts', content: '1\tx', is_error: false },
        { type: 'tool_result', call_id: 'compacted-away', summary: 'x' },
        {
          type: 'message',
          role: 'system',
          content: [
            {
              type: 'text',
              text: '[Notification]\nci is green\n\nThis is a notification, not a blocking request. If you are …',
            },
          ],
        },
        { type: 'message', role: 'user', content: [{ type: 'text', text: 'plain, no segments' }] },
        'junk',
      ],
      '/p',
    );
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      'user_message_chunk',
      'user_message_chunk',
      'agent_message_chunk',
      'tool_call',
      'tool_call_update',
      'agent_message_chunk',
      'user_message_chunk',
    ]);
    expect(updates[3]).toMatchObject({
      toolCallId: 'c',
      kind: 'read',
      title: 'Read a.ts',
      locations: [{ path: '/p/a.ts' }],
    });
    expect(updates[4]).toMatchObject({ toolCallId: 'c', status: 'completed' });
    expect((updates[5] as { content: { text: string } }).content.text).toContain('notification: ci is green');
    expect(updates[6]).toEqual({
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text: 'plain, no segments' },
    });
  });
});
