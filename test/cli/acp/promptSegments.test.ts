import { describe, expect, it } from '@jest/globals';
import { pathToFileURL } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { filePath, promptSegments, segmentBlocks } from '../../../cli/acp/promptSegments.js';

const wire = (v: unknown) => JSON.parse(JSON.stringify(v));
const ctx = (commands: string[] = []) => {
  let n = 0;
  return { cwd: '/work/proj', commands: new Set(commands), nextPasteId: () => ++n };
};

describe('ACP prompt blocks as typed segments', () => {
  it('text, a file link inside the cwd (relative), one outside (absolute), adjacent texts kept apart', () => {
    const blocks: ContentBlock[] = [
      { type: 'text', text: 'compare' },
      { type: 'resource_link', uri: pathToFileURL('/work/proj/src/a b.ts').href, name: 'a b.ts' },
      { type: 'text', text: 'with' },
      { type: 'resource_link', uri: 'file:///etc/hosts', name: 'hosts' },
      { type: 'text', text: ' now' },
    ];
    expect(wire(promptSegments(blocks, ctx()))).toEqual([
      { kind: 'text', content: 'compare' },
      { kind: 'file_ref', path: 'src/a b.ts' },
      { kind: 'text', content: ' with' },
      { kind: 'file_ref', path: '/etc/hosts' },
      { kind: 'text', content: ' now' },
    ]);
  });

  it('an embedded text resource is a paste whose first line names its URI; blobs, images, audio and other links keep their own kind', () => {
    const segments = wire(
      promptSegments(
        [
          { type: 'text', text: 'see' },
          { type: 'resource', resource: { uri: 'file:///work/proj/x.md', text: 'unsaved\nbuffer' } },
          { type: 'resource', resource: { uri: 'zed://blob', blob: 'AAAA', mimeType: 'application/octet-stream' } },
          { type: 'image', data: 'iVBOR', mimeType: 'image/png' },
          { type: 'audio', data: 'UklG', mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'https://example.com/doc', name: 'doc' },
        ],
        ctx(),
      ),
    );
    expect(segments).toEqual([
      { kind: 'text', content: 'see' },
      { kind: 'text', content: '\n' },
      { kind: 'paste', id: 1, chars: 50, lines: 3, content: '[Resource: file:///work/proj/x.md]\nunsaved\nbuffer\n' },
      { kind: 'resource', uri: 'zed://blob', mimeType: 'application/octet-stream', bytes: 3 },
      { kind: 'image', mimeType: 'image/png', data: 'iVBOR' },
      { kind: 'audio', mimeType: 'audio/wav', data: 'UklG' },
      { kind: 'resource_link', uri: 'https://example.com/doc', name: 'doc' },
    ]);
  });

  it("a leading /slug naming one of the pod's commands invokes it; any other slash is text", () => {
    expect(wire(promptSegments([{ type: 'text', text: '/review the parser' }], ctx(['review'])))).toEqual([
      { kind: 'workflow_invoke', slug: 'review' },
      { kind: 'text', content: 'the parser' },
    ]);
    expect(wire(promptSegments([{ type: 'text', text: '/docs:search q=zod' }], ctx(['docs:search'])))).toEqual([
      { kind: 'workflow_invoke', slug: 'docs:search' },
      { kind: 'text', content: 'q=zod' },
    ]);
    expect(wire(promptSegments([{ type: 'text', text: '/usr/bin is where' }], ctx(['review'])))).toEqual([
      { kind: 'text', content: '/usr/bin is where' },
    ]);
  });

  it('file URIs of another host are not local files', () => {
    expect(filePath('file://otherhost/etc/passwd')).toBeUndefined();
    expect(filePath('/a/../b')).toBe('/b');
    expect(filePath('untitled:Untitled-1')).toBeUndefined();
  });

  it('segments come back as the blocks the editor sent (history replay)', () => {
    const segments = wire(
      promptSegments(
        [
          { type: 'text', text: 'fix' },
          { type: 'resource_link', uri: 'file:///work/proj/a.ts', name: 'a.ts' },
          { type: 'resource', resource: { uri: 'file:///work/proj/b.ts', text: 'let b = 1;\n' } },
        ],
        ctx(),
      ),
    );
    expect(segmentBlocks(segments, '/work/proj')).toEqual([
      { type: 'text', text: 'fix' },
      { type: 'resource_link', uri: 'file:///work/proj/a.ts', name: 'a.ts' },
      { type: 'text', text: '\n' },
      { type: 'resource', resource: { uri: 'file:///work/proj/b.ts', text: 'let b = 1;\n' } },
    ]);
    expect(segmentBlocks([{ kind: 'jira', key: 'X-1' }, { kind: 'knowledge_ref', slug: 'style' }, null], '/')).toEqual([
      { type: 'text', text: '[jira]' },
      { type: 'text', text: '#style ' },
    ]);
  });
});
