import { describe, expect, it } from '@jest/globals';
import { pasteResolver } from '../../../plugins/resolvers/pasteResolver.js';
import { hostWith, resolveContext, resolveWith } from '../../../testing/resolverHarness.js';

const host = hostWith(pasteResolver());
const resolve = (segment: unknown) =>
  resolveWith(host, 'paste', segment, resolveContext({ projectDir: process.cwd() }));

describe('yoi:paste', () => {
  it('inlines the pasted text as is, without a label', async () => {
    expect(await resolve({ kind: 'paste', id: 1, chars: 11, lines: 2, content: 'hello\nworld' })).toEqual({
      type: 'inline',
      text: 'hello\nworld',
    });
  });

  it('keeps NUL bytes, unicode and references untouched (a paste is not parsed)', async () => {
    const content = 'a\0b 日本 @../../etc/passwd #x /y';
    expect(await resolve({ kind: 'paste', id: 1, chars: 1, lines: 1, content })).toEqual({
      type: 'inline',
      text: content,
    });
  });

  it('refuses a paste without string content', async () => {
    for (const segment of [{ kind: 'paste' }, { kind: 'paste', content: 7 }, { kind: 'paste', content: null }]) {
      expect(await resolve(segment)).toEqual({
        type: 'unresolved',
        reason: 'malformed paste segment: `content` is not a string',
      });
    }
  });
});
