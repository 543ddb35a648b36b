import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Scope } from '../../../core/scope/Scope.js';
import { knowledgeResolver } from '../../../plugins/resolvers/knowledgeResolver.js';
import {
  completeContext,
  completeWith,
  hostWith,
  hostWithConfig,
  resolveContext,
  resolveWith,
  tempDir,
  within,
  writeFiles,
} from '../../../testing/resolverHarness.js';

let root: string;
let project: string;
let remove: () => void;
const SECRET = 'KNOWLEDGE-SECRET';

beforeAll(() => {
  ({ dir: root, remove } = tempDir());
  project = path.join(root, 'project');
  const k = 'project/.yoi/knowledge';
  writeFiles(root, {
    'outside/secret.md': SECRET,
    [`${k}/style.md`]:
      '---\ntitle: House style\ndescription: How we write\nowner: ignored\n---\n\nUse short sentences.\n',
    [`${k}/plain.md`]: 'Just a body.\n',
    [`${k}/team/review.md`]: '---\ntitle: Reviews\n---\nReview every change.\n',
    [`${k}/broken.md`]: '---\ntitle: [unclosed\n---\nStill useful.\n',
    [`${k}/スタイル ガイド.md`]: 'ユニコード\n',
    [`${k}/stylus.md`]: 'a',
    [`${k}/styles.md`]: 'b',
    [`${k}/stale.md`]: 'c',
    [`${k}/other.md`]: 'd',
    'project/docs/shared.md': 'Shared in scope.\n',
    'project/notes/alt.md': 'From the configured dir.\n',
  });
  fs.symlinkSync(path.join(root, 'outside/secret.md'), path.join(project, '.yoi/knowledge/leak.md'));
  fs.symlinkSync(path.join(root, 'outside'), path.join(project, '.yoi/knowledge/outdir'));
  fs.symlinkSync(path.join(project, 'docs/shared.md'), path.join(project, '.yoi/knowledge/shared.md'));
  fs.mkdirSync(path.join(project, '.yoi/knowledge/folder.md'));
  execFileSync('mkfifo', [path.join(project, '.yoi/knowledge/pipe.md')]);
});

afterAll(() => remove());

const host = hostWith(knowledgeResolver());
const resolve = (slug: unknown, opts: { config?: unknown; signal?: AbortSignal; scope?: Scope } = {}, h = host) =>
  within(
    5000,
    resolveWith(
      h,
      'knowledge_ref',
      { kind: 'knowledge_ref', slug },
      resolveContext({ projectDir: project, scope: Scope.writable(project), ...opts }),
    ),
  );

describe('yoi:knowledge', () => {
  it('gives the note with its title and description as a Knowledge context item', async () => {
    expect(await resolve('style')).toEqual({
      type: 'context',
      label: 'Knowledge: style',
      text: 'Title: House style\nDescription: How we write\n\nUse short sentences.',
    });
  });

  it('gives a note without front matter as its body', async () => {
    expect(await resolve('plain')).toEqual({ type: 'context', label: 'Knowledge: plain', text: 'Just a body.' });
  });

  it('allows subfolders and unicode names', async () => {
    expect(await resolve('team/review')).toEqual({
      type: 'context',
      label: 'Knowledge: team/review',
      text: 'Title: Reviews\n\nReview every change.',
    });
    expect(await resolve('スタイル ガイド')).toMatchObject({ type: 'context', text: 'ユニコード' });
  });

  it('uses a note with broken front matter without it, and warns', async () => {
    const result = await resolve('broken');
    expect(result).toMatchObject({ type: 'context', text: 'Still useful.' });
    expect((result as { warning: string }).warning).toMatch(
      /^#broken: front matter is not valid YAML \(.+\); the document was used without it$/,
    );
  });

  it('suggests up to three close slugs for an unknown one', async () => {
    expect(await resolve('styel')).toEqual({
      type: 'unresolved',
      ref: 'styel',
      reason: 'no knowledge note #styel in .yoi/knowledge; did you mean #style, #stale, #styles?',
    });
    expect(await resolve('review')).toMatchObject({
      reason: 'no knowledge note #review in .yoi/knowledge; did you mean #team/review?',
    });
    expect(await resolve('zzzzzzzz')).toMatchObject({ reason: 'no knowledge note #zzzzzzzz in .yoi/knowledge' });
    expect(await resolve('folder')).toMatchObject({
      type: 'unresolved',
      reason: expect.stringMatching(/^no knowledge note #folder/),
    });
  });

  it.each([
    ['../x', 'invalid knowledge note name: the name has an empty, "." or ".." segment'],
    ['team/../../x', 'invalid knowledge note name: the name has an empty, "." or ".." segment'],
    ['', 'invalid knowledge note name: the name is empty'],
    ['/etc/passwd', 'invalid knowledge note name: the name starts with "/"'],
    ['a//b', 'invalid knowledge note name: the name has an empty, "." or ".." segment'],
    ['a\0b', 'invalid knowledge note name: the name contains control characters'],
    ['..\\..\\x', 'invalid knowledge note name: the name contains a backslash'],
    ['x'.repeat(1 << 20), 'invalid knowledge note name: the name is longer than 200 characters'],
  ])('refuses the slug %j', async (slug, reason) => {
    expect(await resolve(slug)).toMatchObject({ type: 'unresolved', reason });
  });

  it('refuses a malformed segment', async () => {
    expect(await resolve(undefined)).toEqual({
      type: 'unresolved',
      reason: 'malformed knowledge_ref segment: `slug` is not a string',
    });
  });

  it('never follows a link out of the knowledge dir and the scope', async () => {
    expect(await resolve('leak')).toEqual({
      type: 'unresolved',
      ref: 'leak',
      reason: "#leak leads outside .yoi/knowledge and the pod's scope",
    });
    expect(await resolve('outdir/secret')).toMatchObject({
      type: 'unresolved',
      reason: "#outdir/secret leads outside .yoi/knowledge and the pod's scope",
    });
    expect(JSON.stringify(await resolve('outdir/missing'))).not.toContain(SECRET);
  });

  it('follows a link to a file elsewhere in scope', async () => {
    expect(await resolve('shared')).toEqual({ type: 'context', label: 'Knowledge: shared', text: 'Shared in scope.' });
  });

  it('does not open a FIFO', async () => {
    expect(await resolve('pipe')).toEqual({
      type: 'unresolved',
      ref: 'pipe',
      reason: '#pipe is a FIFO, not a regular file; not opened',
    });
  });

  it('reads the directory from the config, and the plugin option over the config', async () => {
    const config = { knowledge: { dir: path.join(project, 'notes') } };
    expect(await resolve('alt', {}, hostWithConfig(config, knowledgeResolver()))).toMatchObject({
      type: 'context',
      text: 'From the configured dir.',
    });
    const optioned = hostWithConfig(config, knowledgeResolver({ dir: 'docs' }));
    expect(await resolve('shared', {}, optioned)).toMatchObject({ type: 'context', text: 'Shared in scope.' });
    expect(await resolve('alt', {}, optioned)).toMatchObject({
      type: 'unresolved',
      reason: 'no knowledge note #alt in docs',
    });
  });

  it('truncates a long note and warns', async () => {
    writeFiles(project, { '.yoi/knowledge/long.md': 'y'.repeat(100) });
    const result = await resolve('long', {}, hostWith(knowledgeResolver({ maxBytes: 10 })));
    expect(result).toEqual({
      type: 'context',
      label: 'Knowledge: long',
      text: `${'y'.repeat(10)}\n\n[truncated: 90 of 100 bytes cut]`,
      warning: '#long was truncated to its first 10 of 100 bytes (limit 10)',
    });
  });

  it('returns at once when the run is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await resolve('style', { signal: controller.signal })).toEqual({
      type: 'unresolved',
      ref: 'style',
      reason: 'cancelled',
    });
  });

  it('a scope deny on part of the folder holds: the note is refused unread, neither suggested nor completed (replayed)', async () => {
    // Before: @file refused such a note and #knowledge read it, since the folder skipped the scope.
    const scope = new Scope(
      {
        deny: [
          { target: '.yoi/knowledge/team', permission: 'read' },
          { target: '.yoi/knowledge/styles.md', permission: 'read' },
        ],
      },
      project,
    );
    const denied = { type: 'unresolved', reason: "#team/review is not readable: outside the pod's scope" };
    expect(await resolve('team/review', { scope })).toMatchObject(denied);
    expect(await resolve('styles', { scope })).toMatchObject({
      reason: "#styles is not readable: outside the pod's scope",
    });
    expect(await resolve('style', { scope })).toMatchObject({ type: 'context', label: 'Knowledge: style' });
    // A near miss names only notes the pod may read.
    expect(await resolve('styel', { scope })).toMatchObject({
      reason: 'no knowledge note #styel in .yoi/knowledge; did you mean #style, #stale?',
    });
    expect(await resolve('review', { scope })).toMatchObject({
      reason: 'no knowledge note #review in .yoi/knowledge',
    });
    const complete = (prefix: string) =>
      completeWith(host, 'knowledge_ref', completeContext({ projectDir: project, prefix, scope }));
    expect(await complete('sty')).toEqual(['style', 'stylus']);
    expect(await complete('team/')).toEqual([]);
  });

  it('completes slugs by prefix, sorted', async () => {
    const complete = (prefix: string, limit?: number) =>
      completeWith(host, 'knowledge_ref', completeContext({ projectDir: project, prefix, limit }));
    expect(await complete('sty')).toEqual(['style', 'styles', 'stylus']);
    expect(await complete('team/')).toEqual(['team/review']);
    expect(await complete('', 2)).toHaveLength(2);
    expect(await complete('../')).toEqual([]);
  });
});
