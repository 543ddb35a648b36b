import { z } from 'zod';
import { Str, U32, struct } from './primitives.js';
import { taggedUnion } from './taggedUnion.js';

export const TextSegmentSchema = struct({ kind: z.literal('text'), content: Str });
/** A bracketed paste; clients render it as `[Clipboard #id | chars chars, lines lines]`. */
export const PasteSegmentSchema = struct({ kind: z.literal('paste'), id: U32, chars: U32, lines: U32, content: Str });
/** `@path`, relative to the pod's cwd. */
export const FileRefSegmentSchema = struct({ kind: z.literal('file_ref'), path: Str });
/** `#slug`. */
export const KnowledgeRefSegmentSchema = struct({ kind: z.literal('knowledge_ref'), slug: Str });
/** `/slug`. */
export const WorkflowInvokeSegmentSchema = struct({ kind: z.literal('workflow_invoke'), slug: Str });

export type TextSegment = z.infer<typeof TextSegmentSchema>;
export type PasteSegment = z.infer<typeof PasteSegmentSchema>;
export type FileRefSegment = z.infer<typeof FileRefSegmentSchema>;
export type KnowledgeRefSegment = z.infer<typeof KnowledgeRefSegmentSchema>;
export type WorkflowInvokeSegment = z.infer<typeof WorkflowInvokeSegmentSchema>;

/**
 * A segment of a kind this build has no schema for (an image from a newer client, a
 * third-party kind). It keeps the original object in `raw`, re-encodes as exactly that object
 * (a v1 Rust client reads it as its own `Unknown`), and resolves through
 * `resolveSegment.for(raw.kind)`.
 */
export class UnknownSegment {
  readonly kind = 'unknown' as const;

  constructor(readonly raw: Readonly<Record<string, unknown>>) {}

  /** The kind the sender wrote (`"image"`, `"jira"`, or literally `"unknown"`). */
  get rawKind(): string {
    return typeof this.raw.kind === 'string' ? this.raw.kind : 'unknown';
  }

  toJSON(): Readonly<Record<string, unknown>> {
    return this.raw;
  }
}

/** The schemas of the segment kinds the protocol knows, by kind. */
export const KNOWN_SEGMENT_SCHEMAS = {
  text: TextSegmentSchema,
  paste: PasteSegmentSchema,
  file_ref: FileRefSegmentSchema,
  knowledge_ref: KnowledgeRefSegmentSchema,
  workflow_invoke: WorkflowInvokeSegmentSchema,
};
export type KnownSegmentKind = keyof typeof KNOWN_SEGMENT_SCHEMAS;

/** Any segment: a known kind, validated, or an {@link UnknownSegment} keeping its payload. */
export const SegmentSchema = taggedUnion({
  name: 'segment',
  tag: 'kind',
  variants: KNOWN_SEGMENT_SCHEMAS,
  passthrough: UnknownSegment,
  onUnknown: (raw) => new UnknownSegment(raw),
});
export type Segment = z.infer<typeof SegmentSchema>;

/** How clients write references of these kinds: `@path`, `#slug`, `/slug`. */
export const SEGMENT_SIGILS = { file_ref: '@', knowledge_ref: '#', workflow_invoke: '/' } as const;
export type RefKind = keyof typeof SEGMENT_SIGILS;
/** The field of each built-in kind that holds what the user wrote after the sigil (or the text). */
export const SEGMENT_FIELDS = {
  text: 'content',
  paste: 'content',
  file_ref: 'path',
  knowledge_ref: 'slug',
  workflow_invoke: 'slug',
} as const;

/** The reference kind a sigil (`@`, `#`, `/`) stands for, if any. */
export function kindOfSigil(sigil: string): RefKind | undefined {
  return (Object.keys(SEGMENT_SIGILS) as RefKind[]).find((k) => SEGMENT_SIGILS[k] === sigil);
}

/** The kind a segment resolves under: its own, or the sender's kind for unknown segments. */
export function segmentKind(segment: Segment): string {
  return segment instanceof UnknownSegment ? segment.rawKind : segment.kind;
}
