import { describe, expect, it } from '@jest/globals';
import { InputBuffer } from '../../../cli/attach/InputBuffer.js';
import { refAtCursor } from '../../../cli/attach/refTokens.js';
import type { PasteSegment, Segment } from '../../../core/protocol/index.js';

const segs = (text: string): Segment[] => InputBuffer.empty.insertText(text).toSegments();
const t = (content: string) => ({ kind: 'text', content });
const file = (path: string) => ({ kind: 'file_ref', path });
const know = (slug: string) => ({ kind: 'knowledge_ref', slug });
const flow = (slug: string) => ({ kind: 'workflow_invoke', slug });

describe('references in typed input', () => {
  it('turns @path, #slug and a leading /slug into segments between text', () => {
    expect(segs('/review please check @src/a b.ts and #style')).toEqual([
      flow('review'), t(' please check '), file('src/a'), t(' b.ts and '), know('style'),
    ]);
    expect(segs('  /deploy')).toEqual([t('  '), flow('deploy')]);
    expect(segs('@README.md')).toEqual([file('README.md')]);
  });

  it('leaves trailing punctuation as text', () => {
    expect(segs('read @a/b.md, then #team/style. (see @x)')).toEqual([
      t('read '), file('a/b.md'), t(', then '), know('team/style'), t('. (see '), file('x'), t(')'),
    ]);
    expect(segs('(@a) "#b"')).toEqual([t('('), file('a'), t(') "'), know('b'), t('"')]);
  });

  it('is not fooled by e-mail addresses, issue numbers, markdown headings or paths in the middle', () => {
    expect(segs('mail a@b.c about #123 and # heading, run /usr/bin/ls')).toEqual([t('mail a@b.c about #123 and # heading, run /usr/bin/ls')]);
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
    expect(InputBuffer.empty.insertText('`a').insertPaste(p).insertText('@b`').toSegments()).toEqual([t('`a'), p, t('@b`')]);
  });

  it('finds the reference before the cursor for completion, with what was typed so far', () => {
    const input = InputBuffer.empty.insertText('see @src/ma and #st');
    expect(refAtCursor(input.atoms, input.cursor)).toEqual({ kind: 'knowledge_ref', prefix: 'st', start: 16, end: 19 });
    const mid = input.left().left().left().left().left().left().left().left().left();
    expect(refAtCursor(mid.atoms, mid.cursor)).toEqual({ kind: 'file_ref', prefix: 'src/m', start: 4, end: 11 });
    const bare = InputBuffer.empty.insertText('/');
    expect(refAtCursor(bare.atoms, bare.cursor)).toEqual({ kind: 'workflow_invoke', prefix: '', start: 0, end: 1 });
    const none = InputBuffer.empty.insertText('x /a');
    expect(refAtCursor(none.atoms, none.cursor)).toBeUndefined();
  });
});
