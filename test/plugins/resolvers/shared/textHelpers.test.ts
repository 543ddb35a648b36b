import { describe, expect, it } from '@jest/globals';
import { displayRef } from '../../../../plugins/resolvers/shared/displayRef.js';
import { editDistance } from '../../../../plugins/resolvers/shared/editDistance.js';
import { parseFrontMatter } from '../../../../plugins/resolvers/shared/parseFrontMatter.js';
import { suggestSlugs } from '../../../../plugins/resolvers/shared/suggestSlugs.js';
import { utf8Boundary } from '../../../../plugins/resolvers/shared/utf8Boundary.js';

describe('utf8Boundary', () => {
  const bytes = Buffer.from('aé€😀'); // 1 + 2 + 3 + 4 bytes
  it.each([
    [0, 0],
    [1, 1],
    [2, 1],
    [3, 3],
    [4, 3],
    [5, 3],
    [6, 6],
    [7, 6],
    [8, 6],
    [9, 6],
    [10, 10],
    [99, 10],
  ])('cuts %i bytes back to %i', (limit, expected) => expect(utf8Boundary(bytes, limit)).toBe(expected));

  it('never splits invalid input into more garbage than it was', () => {
    expect(utf8Boundary(Buffer.from([0x80, 0x80, 0x80, 0x80, 0x80]))).toBe(5);
    expect(utf8Boundary(Buffer.from([0x61, 0xf0]))).toBe(1);
  });
});

describe('parseFrontMatter', () => {
  it('splits YAML front matter, keeping only title and description strings', () => {
    expect(parseFrontMatter('---\ntitle: T\ndescription: 5\nother: x\n---\nbody\n')).toEqual({
      data: { title: 'T' },
      body: 'body\n',
    });
  });

  it('accepts a BOM, CRLF and a `...` closing line', () => {
    expect(parseFrontMatter('\uFEFF---\r\ntitle: T\r\n...\r\nbody')).toEqual({ data: { title: 'T' }, body: 'body' });
  });

  it('treats a document without (or with unclosed) front matter as all body', () => {
    expect(parseFrontMatter('# Title\n---\nx')).toEqual({ data: {}, body: '# Title\n---\nx' });
    expect(parseFrontMatter('---\ntitle: T\nno end')).toEqual({ data: {}, body: '---\ntitle: T\nno end' });
  });

  it('drops invalid or non-mapping front matter with a problem', () => {
    expect(parseFrontMatter('---\n[1, 2]\n---\nb')).toEqual({
      data: {},
      body: 'b',
      problem: 'front matter is not a mapping',
    });
    expect(parseFrontMatter('---\na: [\n---\nb').problem).toMatch(/^front matter is not valid YAML/);
  });

  it('refuses alias bombs instead of expanding them', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdefghij'.split('').map(
        (k, i) =>
          `${k}: &${k} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
    ].join('\n');
    expect(parseFrontMatter(`---\n${bomb}\n---\nbody`)).toMatchObject({
      body: 'body',
      problem: expect.stringMatching(/not valid YAML/),
    });
  });
});

describe('editDistance and suggestSlugs', () => {
  it('counts a swap of neighbours as one edit and stops past the bound', () => {
    expect(editDistance('style', 'styel', 3)).toBe(1);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('a', 'abcdefgh', 2)).toBe(3);
  });

  it('suggests close names and same-leaf names, closest first', () => {
    expect(suggestSlugs('reveiw', ['review', 'team/reveiw', 'rules', 'zzz'])).toEqual(['team/reveiw', 'review']);
    expect(
      suggestSlugs(
        'x'.repeat(200),
        Array.from({ length: 5000 }, (_, i) => `slug-${i}`),
      ),
    ).toEqual([]);
  });
});

describe('displayRef', () => {
  it('neutralises control characters and elides long input', () => {
    expect(displayRef('a\nb\0c\u001b[31m')).toBe('a\uFFFDb\uFFFDc\uFFFD[31m');
    expect(displayRef('x'.repeat(300))).toBe(`${'x'.repeat(256)}…`);
  });
});
