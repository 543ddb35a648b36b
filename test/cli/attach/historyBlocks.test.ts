import { describe, expect, it } from '@jest/globals';
import { historyToBlocks } from '../../../cli/attach/historyBlocks.js';
import { UnknownSegment } from '../../../core/protocol/index.js';

const user = (text: string, segments?: unknown[]) => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'text', text }],
  ...(segments ? { segments } : {}),
});

describe('historyToBlocks', () => {
  it('rebuilds chips and refs from the segments a history item carries', () => {
    const segments = [
      { kind: 'text', content: 'see ' },
      { kind: 'paste', id: 2, chars: 3, lines: 2, content: 'a\nb' },
      { kind: 'file_ref', path: 'x.ts' },
      { kind: 'jira', ref: 'X-1' },
    ];
    const { blocks } = historyToBlocks([user('see a\nb[unresolved …]', segments)], [], 1);
    expect(blocks).toHaveLength(1);
    const block = blocks[0];
    expect(block.kind).toBe('user');
    if (block.kind !== 'user' || !('segments' in block) || !block.segments) throw new Error('no segments');
    expect(block.segments.slice(0, 3)).toEqual(segments.slice(0, 3));
    expect(block.segments[3]).toBeInstanceOf(UnknownSegment);
  });

  it('falls back to the text the model saw when an item has no (valid) segments', () => {
    const { blocks } = historyToBlocks([user('plain'), user('bad', [{ kind: 'paste', id: 'x' }])], [], 1);
    expect(blocks.map((b) => (b.kind === 'user' && 'text' in b ? b.text : undefined))).toEqual(['plain', 'bad']);
  });
});
