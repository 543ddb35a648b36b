import { describe, expect, it } from '@jest/globals';
import { messageItem, type HistoryItem } from '../../../core/history/HistoryItem.js';
import {
  SUMMARY_SECTIONS,
  SUMMARY_SYSTEM,
  summaryItems,
  summaryRequestText,
} from '../../../plugins/compaction/summaryPrompt.js';

const limits = { itemChars: 4000, totalChars: 100_000 };

describe('summary prompt', () => {
  it('asks for the five sections', () => {
    for (const s of SUMMARY_SECTIONS) expect(SUMMARY_SYSTEM).toContain(`## ${s}`);
  });

  it('renders each item by role, tool calls with their arguments and results with their output', () => {
    const items: HistoryItem[] = [
      messageItem('user', 'fix the bug'),
      { type: 'tool_call', call_id: 'c', name: 'Read', arguments: '{"path":"a.ts"}' },
      { type: 'tool_result', call_id: 'c', summary: 'Read 2 lines', content: 'x\ny', is_error: true },
      messageItem('assistant', 'done'),
    ];
    const text = summaryRequestText(items, ['/p/a.ts'], limits);
    expect(text).toBe(
      [
        'Summarise the conversation below into a structured summary for the next session.',
        '',
        '## Recently touched files',
        '- /p/a.ts',
        '',
        '## Conversation',
        '[User] fix the bug',
        '',
        '[ToolCall] Read {"path":"a.ts"}',
        '',
        '[ToolResult error] Read 2 lines\nx\ny',
        '',
        '[Assistant] done',
      ].join('\n'),
    );
  });

  it('cuts long items in the middle and leaves out the oldest items beyond the budget, keeping an earlier summary', () => {
    const items = [
      messageItem('system', '[Compacted context summary]\n\nearlier'),
      ...Array.from({ length: 50 }, (_, i) => messageItem('user', `${i}`.padEnd(100, '.'))),
    ];
    const text = summaryRequestText(items, [], { itemChars: 60, totalChars: 2000 });
    expect(text).toContain('[System] [Compacted context summary]\n\nearlier');
    expect(text).toMatch(/\[\.\.\. \d+ earlier item\(s\) omitted \.\.\.\]/);
    expect(text).toContain('[User] 49');
    expect(text).not.toContain('[User] 0.');
    expect(text).toContain('characters cut');
    expect(text.length).toBeLessThan(2600);
  });

  it('never cuts an item inside a surrogate pair, at its head or at its end', () => {
    // 'x' and 61 emoji (123 UTF-16 units): cut to 60 the head ends mid-pair, cut to 62 the end starts mid-pair.
    for (const itemChars of [60, 62]) {
      const text = summaryRequestText([messageItem('user', `x${'😀'.repeat(61)}`)], [], {
        itemChars,
        totalChars: 2000,
      });
      expect(text).toContain('characters cut');
      expect(text.isWellFormed()).toBe(true);
    }
  });

  it('the new session opens with the summary and, when files were touched, their paths', () => {
    expect(summaryItems(' S \n', [])).toEqual([messageItem('system', '[Compacted context summary]\n\nS')]);
    expect(summaryItems('S', ['/a', '/b'])[1]).toEqual(
      messageItem(
        'system',
        '[Referenced files — touched before compaction, contents not included]\n- /a\n- /b\nRead them again if you need their current contents.',
      ),
    );
  });
});
