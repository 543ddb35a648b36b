import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { UnknownSegment, type Segment } from '../../core/protocol/index.js';
import { pasteSegment } from '../inputSegments.js';

/** First line of the paste an embedded resource becomes: the model (and history replay) read its URI there. */
const RESOURCE_HEADER = /^\[Resource: ([^\]\n]+)\]\n/;

export interface PromptContext {
  /** The pod's working directory: file links inside it become relative `file_ref` paths. */
  readonly cwd: string;
  /** Slugs the pod offers as commands (`/slug` at the start of the prompt invokes one). */
  readonly commands: ReadonlySet<string>;
  /** Numbers the pastes of one session (`[Clipboard #N …]` in other clients). */
  nextPasteId(): number;
}

/**
 * An ACP prompt as yoi's typed segments: text → `text` (a leading `/slug` naming a command →
 * `workflow_invoke`), a `resource_link` to a file → `file_ref` (relative to the pod's cwd when
 * inside it), an embedded text `resource` → a `paste` whose first line names its URI, anything
 * else (images, audio, blobs, other links) → a segment of its own kind, so the pod's placeholder
 * and alert apply. Adjacent inline texts get one space between them where they would touch.
 */
export function promptSegments(blocks: readonly ContentBlock[], ctx: PromptContext): Segment[] {
  const segments: Segment[] = [];
  let lastInline: string | undefined;
  const inline = (segment: Segment, text: string) => {
    if (lastInline !== undefined && lastInline !== '' && text !== '' && !/\s$/.test(lastInline) && !/^\s/.test(text)) {
      if (segment.kind === 'text') segment = { ...segment, content: ` ${segment.content}` };
      else segments.push({ kind: 'text', content: '\n' });
    }
    segments.push(segment);
    lastInline = segment.kind === 'text' ? segment.content : text;
  };
  blocks.forEach((block, i) => {
    switch (block.type) {
      case 'text': {
        const command = i === 0 ? leadingCommand(block.text, ctx.commands) : undefined;
        if (command) {
          segments.push({ kind: 'workflow_invoke', slug: command.slug });
          if (command.rest !== '') inline({ kind: 'text', content: command.rest }, command.rest);
        } else {
          inline({ kind: 'text', content: block.text }, block.text);
        }
        return;
      }
      case 'resource_link': {
        const file = filePath(block.uri);
        if (file !== undefined) segments.push({ kind: 'file_ref', path: relativeToCwd(file, ctx.cwd) });
        else
          segments.push(
            own('resource_link', {
              uri: block.uri,
              name: block.name,
              ...(block.mimeType ? { mimeType: block.mimeType } : {}),
            }),
          );
        return;
      }
      case 'resource': {
        const r = block.resource;
        if ('text' in r) {
          const content = `[Resource: ${r.uri}]\n${r.text}${r.text.endsWith('\n') ? '' : '\n'}`;
          inline(pasteSegment(content, ctx.nextPasteId()), content);
        } else {
          // The bytes stay with the editor: a placeholder needs only what the resource is.
          segments.push(
            own('resource', {
              uri: r.uri,
              ...(r.mimeType ? { mimeType: r.mimeType } : {}),
              bytes: Math.floor((r.blob.length * 3) / 4),
            }),
          );
        }
        return;
      }
      case 'image':
        segments.push(
          own('image', { mimeType: block.mimeType, data: block.data, ...(block.uri ? { uri: block.uri } : {}) }),
        );
        return;
      case 'audio':
        segments.push(own('audio', { mimeType: block.mimeType, data: block.data }));
        return;
      default:
        segments.push(own(String((block as { type?: unknown }).type ?? 'unknown'), {}));
    }
  });
  return segments;
}

/** A segment of a kind yoi's protocol does not define: it travels as the object itself. */
function own(kind: string, fields: Record<string, unknown>): Segment {
  return new UnknownSegment({ kind, ...fields });
}

/** `/slug rest…` at the very start, when `slug` is one of the pod's commands. */
function leadingCommand(text: string, commands: ReadonlySet<string>): { slug: string; rest: string } | undefined {
  const m = /^\/([^\s/][^\s]*)(?:\s+|$)/.exec(text);
  if (!m || !commands.has(m[1])) return undefined;
  return { slug: m[1], rest: text.slice(m[0].length) };
}

/** The local path of a `file:` URI (or an absolute path given bare); undefined for other schemes. */
export function filePath(uri: string): string | undefined {
  if (uri.startsWith('/')) return path.normalize(uri);
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined; // a file URI naming another host
  }
}

function relativeToCwd(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/**
 * yoi segments (a user message from history, or another client's run) back as ACP content blocks:
 * what the editor shows in the user's bubble.
 */
export function segmentBlocks(segments: readonly unknown[], cwd: string): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const raw of segments) {
    if (raw === null || typeof raw !== 'object') continue;
    const s = raw as Record<string, unknown>;
    const str = (key: string) => (typeof s[key] === 'string' ? (s[key] as string) : undefined);
    switch (s.kind) {
      case 'text':
        if (str('content')) blocks.push({ type: 'text', text: str('content')! });
        break;
      case 'paste': {
        const content = str('content') ?? '';
        const header = RESOURCE_HEADER.exec(content);
        if (header)
          blocks.push({ type: 'resource', resource: { uri: header[1], text: content.slice(header[0].length) } });
        else blocks.push({ type: 'text', text: content });
        break;
      }
      case 'file_ref': {
        const p = str('path') ?? '';
        blocks.push({ type: 'resource_link', uri: pathToFileURL(path.resolve(cwd, p)).href, name: p });
        break;
      }
      case 'workflow_invoke':
        blocks.push({ type: 'text', text: `/${str('slug') ?? ''} ` });
        break;
      case 'knowledge_ref':
        blocks.push({ type: 'text', text: `#${str('slug') ?? ''} ` });
        break;
      case 'resource_link':
        if (str('uri')) blocks.push({ type: 'resource_link', uri: str('uri')!, name: str('name') ?? str('uri')! });
        break;
      default:
        blocks.push({ type: 'text', text: `[${String(s.kind)}]` });
    }
  }
  return blocks;
}
