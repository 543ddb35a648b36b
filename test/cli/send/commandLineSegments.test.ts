import { describe, expect, it } from '@jest/globals';
import { commandLineSegments, parseSegmentFlag, type SendToken } from '../../../cli/send/commandLineSegments.js';
import { commandLineTokens } from '../../../cli/send/commandLineTokens.js';
import { UnknownSegment } from '../../../core/protocol/index.js';

const text = (value: string): SendToken => ({ type: 'text', value });
const file = (value: string): SendToken => ({ type: 'file', value });

describe('commandLineSegments', () => {
  it('keeps the command-line order; words join with spaces, text after a reference starts with one', () => {
    expect(
      commandLineSegments([
        file('a.ts'),
        file('b.ts'),
        text('explain'),
        text('this'),
        { type: 'knowledge', value: 'style' },
        text('please'),
      ]),
    ).toEqual([
      { kind: 'file_ref', path: 'a.ts' },
      { kind: 'file_ref', path: 'b.ts' },
      { kind: 'text', content: 'explain this' },
      { kind: 'knowledge_ref', slug: 'style' },
      { kind: 'text', content: ' please' },
    ]);
  });

  it('puts piped stdin right after the message, which then ends with a newline; last without a message', () => {
    expect(commandLineSegments([text('review'), file('notes.md')], 'diff\n')).toEqual([
      { kind: 'text', content: 'review\n' },
      { kind: 'paste', id: 1, chars: 5, lines: 1, content: 'diff\n' },
      { kind: 'file_ref', path: 'notes.md' },
    ]);
    expect(commandLineSegments([{ type: 'workflow', value: 'review' }], 'x')).toEqual([
      { kind: 'workflow_invoke', slug: 'review' },
      { kind: 'paste', id: 1, chars: 1, lines: 1, content: 'x' },
    ]);
    expect(commandLineSegments([text('hi')], '')).toEqual([{ kind: 'text', content: 'hi' }]);
  });

  it('--segment: known kinds are checked, other kinds go as written, in order', () => {
    const [a, b] = commandLineSegments([
      { type: 'segment', value: '{"kind":"ticket_ref","id":"T-1","extra":[1]}' },
      { type: 'segment', value: '{"kind":"file_ref","path":"x"}' },
    ]);
    expect(a).toBeInstanceOf(UnknownSegment);
    expect(JSON.stringify(a)).toBe('{"kind":"ticket_ref","id":"T-1","extra":[1]}');
    expect(b).toEqual({ kind: 'file_ref', path: 'x' });
  });

  it.each([
    ['{bad', /^--segment #1 is not valid JSON \(.+\): give an object such as/],
    ['[1]', /^--segment #1 must be a JSON object with a string "kind", got an array$/],
    ['null', /got null$/],
    ['"text"', /got string$/],
    ['{"kind":3}', /^--segment #1 needs a string "kind"/],
    ['{"kind":""}', /needs a string "kind"/],
    ['{"kind":"file_ref"}', /^--segment #1 is not a valid file_ref segment: .*path/],
  ])('--segment %s is a one-line usage error', (json, message) => {
    let error: unknown;
    try {
      parseSegmentFlag(json);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'YOI_ERR_USAGE', message: expect.stringMatching(message) });
    expect(String((error as Error).message)).not.toContain('\n');
  });
});

describe('commandLineTokens', () => {
  it("takes oclif's tokens in order, text and segment flags only", () => {
    const raw = [
      { type: 'flag', flag: 'file', input: 'a.ts' },
      { type: 'flag', flag: 'json', input: '--json' },
      { type: 'arg', input: 'explain' },
      { type: 'flag', flag: 'pod', input: 'alpha' },
      { type: 'flag', flag: 'segment', input: '{}' },
    ];
    expect(commandLineTokens(raw)).toEqual([file('a.ts'), text('explain'), { type: 'segment', value: '{}' }]);
  });
});
