import { describe, expect, it } from '@jest/globals';
import { InputBuffer } from '../../../cli/attach/InputBuffer.js';
import { refAtCursor } from '../../../cli/attach/refTokens.js';
import { SegmentKinds } from '../../../cli/attach/SegmentKinds.js';
import { UnknownSegment, type PasteSegment, type Segment } from '../../../core/protocol/index.js';

const segs = (text: string): Segment[] => InputBuffer.empty.insertText(text).toSegments();
const t = (content: string) => ({ kind: 'text', content });
const file = (path: string) => ({ kind: 'file_ref', path });
const know = (slug: string) => ({ kind: 'knowledge_ref', slug });
const flow = (slug: string) => ({ kind: 'workflow_invoke', slug });

describe('references in typed input', () => {
  it('turns @path, #slug and a leading /slug into segments between text', () => {
    expect(segs('/review please check @src/a b.ts and #style')).toEqual([
      flow('review'),
      t(' please check '),
      file('src/a'),
      t(' b.ts and '),
      know('style'),
    ]);
    expect(segs('  /deploy')).toEqual([t('  '), flow('deploy')]);
    expect(segs('@README.md')).toEqual([file('README.md')]);
  });

  it('leaves trailing punctuation as text', () => {
    expect(segs('read @a/b.md, then #team/style. (see @x)')).toEqual([
      t('read '),
      file('a/b.md'),
      t(', then '),
      know('team/style'),
      t('. (see '),
      file('x'),
      t(')'),
    ]);
    expect(segs('(@a) "#b"')).toEqual([t('('), file('a'), t(') "'), know('b'), t('"')]);
  });

  it('is not fooled by e-mail addresses, issue numbers, markdown headings or paths in the middle', () => {
    expect(segs('mail a@b.c about #123 and # heading, run /usr/bin/ls')).toEqual([
      t('mail a@b.c about #123 and # heading, run /usr/bin/ls'),
    ]);
    expect(segs('@ alone and #')).toEqual([t('@ alone and #')]);
    expect(segs('#../up #a//b')).toEqual([t('#../up #a//b')]);
  });

  it('ignores references inside backtick code spans and fences', () => {
    expect(segs('run `cat @x #y` then @z')).toEqual([t('run `cat @x #y` then '), file('z')]);
    expect(segs('```\n@inside\n``` @out')).toEqual([t('```\n@inside\n``` '), file('out')]);
    // An unmatched backtick opens nothing.
    expect(segs('it`s @here')).toEqual([t('it`s '), file('here')]);
  });

  it('writes the sigil itself after a backslash', () => {
    expect(segs('\\@home \\#tag \\/cmd')).toEqual([t('@home #tag /cmd')]);
    expect(segs('`\\@x`')).toEqual([t('`\\@x`')]);
  });

  it('starts a reference right after a paste chip, and keeps the paste a paste inside code spans', () => {
    const p: PasteSegment = { kind: 'paste', id: 1, chars: 1, lines: 1, content: 'P' };
    expect(InputBuffer.empty.insertPaste(p).insertText('@f').toSegments()).toEqual([p, file('f')]);
    expect(InputBuffer.empty.insertText('`a').insertPaste(p).insertText('@b`').toSegments()).toEqual([
      t('`a'),
      p,
      t('@b`'),
    ]);
  });

  it('finds the reference before the cursor for completion, with what was typed so far', () => {
    const input = InputBuffer.empty.insertText('see @src/ma and #st');
    expect(refAtCursor(input.atoms, input.cursor)).toEqual({
      kind: 'knowledge_ref',
      sigil: '#',
      prefix: 'st',
      start: 16,
      end: 19,
    });
    const mid = input.left().left().left().left().left().left().left().left().left();
    expect(refAtCursor(mid.atoms, mid.cursor)).toEqual({
      kind: 'file_ref',
      sigil: '@',
      prefix: 'src/m',
      start: 4,
      end: 11,
    });
    const bare = InputBuffer.empty.insertText('/');
    expect(refAtCursor(bare.atoms, bare.cursor)).toEqual({
      kind: 'workflow_invoke',
      sigil: '/',
      prefix: '',
      start: 0,
      end: 1,
    });
    const none = InputBuffer.empty.insertText('x /a');
    expect(refAtCursor(none.atoms, none.cursor)).toBeUndefined();
  });
});

describe('references for the kinds a pod advertises', () => {
  const kinds = SegmentKinds.fromWelcome([
    { kind: 'text', field: 'content' },
    { kind: 'file_ref', sigil: '@', field: 'path' },
    { kind: 'workflow_invoke', sigil: '/', field: 'slug' },
    { kind: 'ticket_ref', sigil: '!', field: 'id' },
    { kind: 'env_ref', sigil: '$$', field: 'name' },
    { kind: 'tag_ref', sigil: '#' },
    { kind: 'no_sigil_ref' },
    { kind: 'bad_ref', sigil: 'a b' },
  ]);
  const parse = (text: string) =>
    InputBuffer.empty
      .insertText(text)
      .toSegments(kinds)
      .map((s) => JSON.parse(JSON.stringify(s)) as unknown);

  it('turns <sigil><token> into {kind, [field]: token} for every advertised sigil, `ref` when no field is named', () => {
    expect(parse('fix !PROJ-12, see $$HOME_DIR and #ops/alerts')).toEqual([
      t('fix '),
      { kind: 'ticket_ref', id: 'PROJ-12' },
      t(', see '),
      { kind: 'env_ref', name: 'HOME_DIR' },
      t(' and '),
      { kind: 'tag_ref', ref: 'ops/alerts' },
    ]);
    const [seg] = InputBuffer.empty.insertText('!X-1').toSegments(kinds);
    expect(seg).toBeInstanceOf(UnknownSegment);
    // A built-in kind is still the typed segment.
    expect(InputBuffer.empty.insertText('@a.md').toSegments(kinds)[0]).toEqual(file('a.md'));
  });

  it('keeps `/` special (first word only) and `#123` text, and a sigil the pod does not advertise is text', () => {
    expect(parse('/deploy now')).toEqual([flow('deploy'), t(' now')]);
    expect(parse('now /deploy #42 #x')).toEqual([t('now /deploy #42 '), { kind: 'tag_ref', ref: 'x' }]);
    // knowledge_ref is not in this welcome: `#` belongs to tag_ref; `%` is nobody's.
    expect(parse('%x a@b')).toEqual([t('%x a@b')]);
  });

  it('writes any advertised sigil itself after a backslash, and ignores sigils that cannot be typed', () => {
    expect(parse('\\!x \\$$y')).toEqual([t('!x $$y')]);
    expect(kinds.sigils.map((s) => s.sigil)).toEqual(['$$', '@', '/', '!', '#']);
  });

  it('falls back to @ # / for a pod whose welcome has no `segments`', () => {
    const old = SegmentKinds.fromWelcome(undefined);
    expect(old.sigils.map((s) => `${s.sigil}${s.kind}`).sort()).toEqual([
      '#knowledge_ref',
      '/workflow_invoke',
      '@file_ref',
    ]);
    expect(InputBuffer.empty.insertText('!x #y').toSegments(old)).toEqual([t('!x '), know('y')]);
  });

  it('finds a custom reference before the cursor for completion', () => {
    const input = InputBuffer.empty.insertText('see $$HO');
    expect(refAtCursor(input.atoms, input.cursor, kinds)).toEqual({
      kind: 'env_ref',
      sigil: '$$',
      prefix: 'HO',
      start: 4,
      end: 8,
    });
  });
});
