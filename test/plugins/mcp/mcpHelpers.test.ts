import { describe, expect, it } from '@jest/globals';
import { promptArguments } from '../../../plugins/mcp/promptArguments.js';
import {
  allPodToolNames,
  fitDefinitions,
  makePodTool,
  podToolName,
  podToolNames,
} from '../../../plugins/mcp/podTools.js';
import { toolOutput } from '../../../plugins/mcp/toolOutput.js';
import { resourceTarget } from '../../../plugins/mcp/mcpResourceSegment.js';
import { listAll, MAX_LIST_CHARS, MAX_LIST_ITEMS } from '../../../plugins/mcp/listAll.js';
import { listedCopy } from '../../../plugins/mcp/listedCopy.js';
import { StderrTail } from '../../../plugins/mcp/StderrTail.js';

const text = (content: string) => ({ kind: 'text' as const, content });
const slug = { kind: 'workflow_invoke' as const, slug: 's:p' };

describe('promptArguments', () => {
  it('takes the key=value words at the start of the following text, quoted values included', () => {
    expect(promptArguments([slug, text('city=Paris state="Île de France" then a question x=1')], 0)).toEqual({
      city: 'Paris',
      state: 'Île de France',
    });
    expect(promptArguments([slug, text('  a=1 b="say \\"hi\\"" c=')], 0)).toEqual({ a: '1', b: 'say "hi"', c: '' });
  });

  it('gives nothing when no text follows, or it does not start with an argument', () => {
    expect(promptArguments([slug], 0)).toEqual({});
    expect(promptArguments([slug, { kind: 'file_ref', path: 'a=b' }], 0)).toEqual({});
    expect(promptArguments([slug, text('hello city=Paris')], 0)).toEqual({});
    expect(promptArguments(undefined, 0)).toEqual({});
  });

  it('is bounded on hostile input', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `k${i}=v`).join(' ');
    expect(Object.keys(promptArguments([slug, text(many)], 0))).toHaveLength(64);
  });
});

describe('podToolName', () => {
  it('is mcp__<server>__<tool> with only characters providers accept, at most 64, unique when cut', () => {
    expect(podToolName('fs', 'read_file')).toBe('mcp__fs__read_file');
    expect(podToolName('fs', 'dir.list/all')).toBe('mcp__fs__dir_list_all');
    const a = podToolName('server', 'x'.repeat(80) + 'a');
    const b = podToolName('server', 'x'.repeat(80) + 'b');
    expect(a).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

it('podToolNames keeps tools apart whose names clean up the same', () => {
  const names = podToolNames('s', [{ name: 'a.b' }, { name: 'a_b' }, { name: 'c' }]);
  expect(names.get('a.b')).toBe('mcp__s__a_b');
  expect(names.get('a_b')).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
  expect(names.get('c')).toBe('mcp__s__c');
});

it("allPodToolNames: server x_'s tool shadow and server x's tool _shadow both stay callable (replayed: one hid the other)", () => {
  const names = allPodToolNames([
    { name: 'x', tools: [{ name: '_shadow' }] },
    { name: 'x_', tools: [{ name: 'shadow' }, { name: 'other' }] },
  ]);
  expect(names.get('x')!.get('_shadow')).toBe('mcp__x___shadow');
  expect(names.get('x_')!.get('shadow')).toMatch(/^mcp__x___shadow_[0-9a-f]{8}$/);
  expect(names.get('x_')!.get('other')).toBe('mcp__x___other');
});

it('fitDefinitions keeps tools in order until their names, descriptions and schemas fill the budget', () => {
  const tool = (name: string, chars: number) => ({
    name,
    description: 'd'.repeat(chars),
    input: {} as never,
    inputJsonSchema: { type: 'object' },
    execute: () => Promise.resolve({ summary: '' }),
  });
  const schema = JSON.stringify({ type: 'object' }).length;
  const tools = [tool('a', 100), tool('b', 100), tool('c', 1), tool('d', 100)];
  const { kept, dropped } = fitDefinitions(tools, 2 * (101 + schema) + 2 + schema);
  expect(kept.map((t) => t.name)).toEqual(['a', 'b', 'c']);
  expect(dropped.map((t) => t.name)).toEqual(['d']);
  expect(fitDefinitions(tools).dropped).toEqual([]);
});

describe('toolOutput', () => {
  it('joins text, summarises images, audio, binary resources and links, and keeps text resources', () => {
    const out = toolOutput('s/t', {
      content: [
        { type: 'text', text: 'first line\nsecond' },
        { type: 'image', data: Buffer.alloc(30).toString('base64'), mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'x://a', text: 'inner', mimeType: 'text/plain' } },
        { type: 'resource', resource: { uri: 'x://b', blob: 'AAAA', mimeType: 'application/zip' } },
        { type: 'resource_link', uri: 'x://c', name: 'C' },
        { type: 'hologram' },
      ],
    });
    expect(out.summary).toBe('s/t: first line');
    expect(out.content).toBe(
      [
        'first line\nsecond',
        '[image: image/png, 30 bytes, not shown]',
        '[audio: audio/wav, 3 bytes, not shown]',
        '[resource x://a (text/plain)]\ninner',
        '[binary resource x://b: application/zip, 3 bytes, not shown]',
        '[resource link x://c (C)]',
        '[hologram content, not shown]',
      ].join('\n'),
    );
    expect(out.is_error).toBeUndefined();
  });

  it('isError becomes is_error; structured content is used when there is no content', () => {
    expect(toolOutput('s/t', { content: [{ type: 'text', text: 'nope' }], isError: true })).toEqual({
      summary: 's/t failed: nope',
      content: 'nope',
      is_error: true,
    });
    expect(toolOutput('s/t', { content: [], structuredContent: { a: 1 } })).toEqual({
      summary: 's/t: {"a":1}',
      content: '{"a":1}',
    });
    expect(toolOutput('s/t', {})).toEqual({ summary: 's/t: no content' });
    expect(toolOutput('s/t', { content: 'not a list' as never })).toEqual({ summary: 's/t: no content' });
  });
});

describe('resourceTarget', () => {
  it('reads {server, uri} or ref "<server>:<uri>" (the uri may hold colons)', () => {
    expect(resourceTarget({ server: 'a', uri: 'x://y' })).toEqual({ server: 'a', uri: 'x://y' });
    expect(resourceTarget({ ref: 'a:x://y:z' })).toEqual({ server: 'a', uri: 'x://y:z' });
    expect(resourceTarget({ ref: 'nocolon' })).toMatch(/^malformed mcp_resource ref/);
    expect(resourceTarget({ ref: ':x' })).toMatch(/^malformed/);
    expect(resourceTarget({ server: 1, uri: [] })).toMatch(/^malformed mcp_resource segment/);
  });
});

it('listAll follows cursors, bounded in pages, items and characters, and says where it cut', async () => {
  let pages = 0;
  const endless = await listAll(async (cursor) => {
    pages++;
    return { items: [cursor ?? 'start'], next: `c${pages}` };
  });
  expect(endless).toEqual({ items: expect.any(Array), cut: 'at 50 pages' });
  expect(endless.items).toHaveLength(50);
  const huge = await listAll(async () => ({ items: Array.from({ length: 5000 }, (_, i) => i), next: 'more' }));
  expect(huge.items).toHaveLength(MAX_LIST_ITEMS);
  expect(huge.cut).toBe('at 1000 items');
  const same = await listAll(async () => ({ items: [1], next: 'same' }));
  expect(same.items.length).toBeLessThanOrEqual(2);
  expect(same.cut).toBeUndefined();
  const mib = 'x'.repeat(1024 * 1024);
  const big = await listAll(
    async (cursor) => ({ items: [{ d: mib }], next: String(Number(cursor ?? 0) + 1) }),
    (item) => item.d.length,
  );
  expect(big).toEqual({ items: Array(MAX_LIST_CHARS / (1024 * 1024) - 1).fill(mib.length), cut: 'at 8 MiB of JSON' });
});

it('listedCopy keeps what the pod offers the same, and drops what it holds beyond it', () => {
  const conn = { name: 's' } as never;
  const tools = [
    {
      name: 'a',
      description: 'short',
      inputSchema: { type: 'object' as const, properties: { x: { type: 'string' } } },
    },
    { name: 'b', description: `  ${'d'.repeat(10_000)}  `, inputSchema: { type: 'object' as const } },
    {
      name: 'c',
      title: 'T'.repeat(5000),
      inputSchema: { type: 'object' as const, properties: { p: 'q'.repeat(70_000) } },
    },
    { name: 'd', description: '   ', title: 'title', inputSchema: { type: 'object' as const } },
  ];
  for (const t of tools) {
    const copy = listedCopy.tool({ ...t, _meta: { big: 'm'.repeat(100_000) } } as never);
    const offered = makePodTool(conn, copy);
    const original = makePodTool(conn, t as never);
    expect({ ...offered, execute: undefined }).toEqual({ ...original, execute: undefined });
    expect(JSON.stringify(copy).length).toBeLessThan(6000);
  }
  const prompt = listedCopy.prompt({
    name: 'p',
    description: 'x'.repeat(9_000_000),
    arguments: Array.from({ length: 1000 }, (_, i) => ({ name: `a${i}`, description: 'y'.repeat(9000) })),
  });
  expect(JSON.stringify(prompt).length).toBeLessThan(64 * 4200 + 5000);
  expect(listedCopy.resource({ uri: 'u', name: 'n', description: 'z'.repeat(1e6) })).toEqual({ uri: 'u', name: 'n' });
});

it('StderrTail keeps a bounded tail and prefers the line naming an error', () => {
  const tail = new StderrTail(3, 10);
  tail.push('booting\nError: bad thing happened here\nNode.js v20\n');
  expect(tail.last()).toBe('Error: bad');
  tail.push('a\nb\nc\nd\n');
  expect(tail.last()).toBe('d');
  tail.push('x'.repeat(100_000));
  expect(tail.last()!.length).toBeLessThanOrEqual(10);
});
