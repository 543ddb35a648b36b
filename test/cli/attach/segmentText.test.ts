import { describe, expect, it } from '@jest/globals';
import { stripVTControlCharacters } from 'node:util';
import { InputBuffer } from '../../../cli/attach/InputBuffer.js';
import { SegmentKinds } from '../../../cli/attach/SegmentKinds.js';
import { segmentsText } from '../../../cli/attach/segmentText.js';
import { SegmentSchema, UnknownSegment, type Segment } from '../../../core/protocol/index.js';

const kinds = SegmentKinds.fromWelcome([
  { kind: 'text' },
  { kind: 'paste' },
  { kind: 'file_ref', sigil: '@', field: 'path' },
  { kind: 'knowledge_ref', sigil: '#', field: 'slug' },
  { kind: 'workflow_invoke', sigil: '/', field: 'slug' },
  { kind: 'env_ref', sigil: '$', field: 'name' },
  { kind: 'jira' },
]);
const show = (segments: Segment[], k = kinds) => stripVTControlCharacters(segmentsText(segments, k));
const t = (content: string): Segment => ({ kind: 'text', content });
const seg = (raw: Record<string, unknown>) => SegmentSchema.parse(raw);
const paste: Segment = { kind: 'paste', id: 3, chars: 5, lines: 2, content: 'a\nbcd' };

describe('user messages as shown', () => {
  it('writes references with their sigil and shows every other kind as a labelled chip, never "unknown"', () => {
    expect(
      show([t('check '), seg({ kind: 'env_ref', name: 'NODE_ENV' }), t(' and '), seg({ kind: 'jira', ref: 'X-1' })]),
    ).toBe('check $NODE_ENV and [jira: X-1]');
    // A kind this pod does not advertise, one without a string field, one with a long value.
    expect(show([seg({ kind: 'image', url: 'http://x/y.png' })])).toBe('[image: http://x/y.png]');
    expect(show([seg({ kind: 'blob', size: 3 })])).toBe('[blob: {"size":3}]');
    expect(show([seg({ kind: 'jira', ref: 'x'.repeat(200) })])).toBe(`[jira: ${'x'.repeat(79)}…]`);
    // Built-in kinds a pod does not advertise are chips too; an older pod's (no `segments`) keep their sigils.
    expect(show([seg({ kind: 'file_ref', path: 'a.md' })], SegmentKinds.fromWelcome([]))).toBe('[file_ref: a.md]');
    expect(show([seg({ kind: 'file_ref', path: 'a.md' })], SegmentKinds.fromWelcome(undefined))).toBe('@a.md');
  });

  it('keeps references apart from the words around them, as `yoi send` sends them', () => {
    expect(
      show([
        t('explain'),
        seg({ kind: 'file_ref', path: 'src/math.ts' }),
        seg({ kind: 'knowledge_ref', slug: 'style' }),
      ]),
    ).toBe('explain @src/math.ts #style');
    expect(show([seg({ kind: 'workflow_invoke', slug: 'review' }), t('this diff\n'), paste])).toBe(
      '/review this diff\n[Clipboard #3 | 5 chars, 2 lines]',
    );
    // Typed spacing, brackets and punctuation are kept as they are; pastes stay where they were pasted.
    expect(
      show([
        t('see ('),
        seg({ kind: 'file_ref', path: 'a' }),
        t('), then'),
        paste,
        seg({ kind: 'file_ref', path: 'b' }),
      ]),
    ).toBe('see (@a), then[Clipboard #3 | 5 chars, 2 lines]@b');
  });
});

describe('InputBuffer.fromSegments', () => {
  const roundTrip = (segments: Segment[]) =>
    InputBuffer.fromSegments(segments, kinds)
      .toSegments(kinds)
      .map((s) => JSON.parse(JSON.stringify(s)) as unknown);

  it('rebuilds an input that submits the same references, custom kinds included', () => {
    const segments = [
      t('use '),
      seg({ kind: 'env_ref', name: 'CI' }),
      t(' with '),
      seg({ kind: 'file_ref', path: 'a.md' }),
      t(', ok'),
    ];
    expect(roundTrip(segments)).toEqual(JSON.parse(JSON.stringify(segments)));
    expect(InputBuffer.fromSegments(segments, kinds).atoms.every((a) => a.kind === 'char')).toBe(true);
  });

  it('adds the space a reference needs to read back, and keeps what cannot be typed as a chip', () => {
    const input = InputBuffer.fromSegments(
      [
        t('explain'),
        seg({ kind: 'file_ref', path: 'src/a b.ts' }),
        seg({ kind: 'jira', ref: 'X-1' }),
        seg({ kind: 'file_ref', path: 'ok.md' }),
        t('now'),
      ],
      kinds,
    );
    expect(input.atoms.map((a) => (a.kind === 'char' ? a.ch : `[${a.kind}]`)).join('')).toBe(
      'explain [chip] [chip] @ok.md now',
    );
    const sent = input.toSegments(kinds);
    expect(sent[1]).toEqual({ kind: 'file_ref', path: 'src/a b.ts' });
    expect(sent[3]).toBeInstanceOf(UnknownSegment);
    expect(JSON.stringify(sent)).toBe(
      JSON.stringify([
        t('explain '),
        { kind: 'file_ref', path: 'src/a b.ts' },
        t(' '),
        { kind: 'jira', ref: 'X-1' },
        t(' '),
        { kind: 'file_ref', path: 'ok.md' },
        t(' now'),
      ]),
    );
    // `/slug` only reads back as the first word.
    expect(roundTrip([t('then '), seg({ kind: 'workflow_invoke', slug: 'deploy' })])[1]).toEqual({
      kind: 'workflow_invoke',
      slug: 'deploy',
    });
    expect(
      InputBuffer.fromSegments([t('then '), seg({ kind: 'workflow_invoke', slug: 'deploy' })], kinds).atoms.some(
        (a) => a.kind === 'chip',
      ),
    ).toBe(true);
  });
});
