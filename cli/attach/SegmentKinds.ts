import {
  SEGMENT_FIELDS,
  SEGMENT_SIGILS,
  SegmentSchema,
  UnknownSegment,
  segmentKind,
  type Segment,
  type SegmentKindInfo,
} from '../../core/protocol/index.js';

/** One kind the client can write with a sigil: `<sigil><token>` becomes `{kind, [field]: token}`. */
export interface SigilKind {
  readonly kind: string;
  readonly sigil: string;
  /** The segment field holding the token (`path`, `slug`, or `ref` when the pod names none). */
  readonly field: string;
  /** How far the token runs: a slug (letters, digits, `_-./`) or anything up to whitespace. */
  readonly token: 'slug' | 'word';
  readonly description?: string;
}

/** Kinds whose token is a slug; every other kind (files, third-party kinds) runs to whitespace. */
const SLUG_KINDS = new Set(['knowledge_ref', 'workflow_invoke']);
/** Kinds that are never references (they are typed or pasted). */
const INLINE_KINDS = new Set(['text', 'paste']);
/** Characters a sigil may not contain: whitespace, the escape, code spans, and the chip brackets. */
const BAD_SIGIL = /[\s\\`[\]]/u;
const MAX_SIGIL = 8;

/**
 * The segment kinds a pod advertises in its v2 `welcome` (`segments`), as the attach client
 * uses them: which sigils start a reference, what segment a reference makes, and how a segment
 * is written back. A pod whose welcome has no `segments` (an older pod) gets the three
 * built-in sigils `@` `#` `/`.
 */
export class SegmentKinds {
  static readonly builtIn = new SegmentKinds(
    (Object.keys(SEGMENT_SIGILS) as (keyof typeof SEGMENT_SIGILS)[]).map((kind) => ({
      kind,
      sigil: SEGMENT_SIGILS[kind],
      field: SEGMENT_FIELDS[kind],
    })),
  );

  /** Sigils, longest first (so `$$` wins over `$`). */
  readonly sigils: readonly SigilKind[];
  private readonly byKind = new Map<string, SigilKind>();

  private constructor(infos: readonly SegmentKindInfo[]) {
    const bySigil = new Map<string, SigilKind>();
    for (const info of infos) {
      const { kind, sigil } = info;
      if (INLINE_KINDS.has(kind) || !sigil || sigil.length > MAX_SIGIL || BAD_SIGIL.test(sigil)) continue;
      if (bySigil.has(sigil) || this.byKind.has(kind)) continue; // the first claim wins
      const field = info.field || (SEGMENT_FIELDS as Record<string, string>)[kind] || 'ref';
      const entry: SigilKind = {
        kind,
        sigil,
        field,
        token: SLUG_KINDS.has(kind) ? 'slug' : 'word',
        ...(info.description ? { description: info.description } : {}),
      };
      bySigil.set(sigil, entry);
      this.byKind.set(kind, entry);
    }
    this.sigils = [...bySigil.values()].sort((a, b) => b.sigil.length - a.sigil.length);
  }

  /** The kinds of a `welcome`; without `segments` (an older pod), the built-in three. */
  static fromWelcome(segments: readonly SegmentKindInfo[] | undefined): SegmentKinds {
    return segments === undefined ? SegmentKinds.builtIn : new SegmentKinds(segments);
  }

  kind(kind: string): SigilKind | undefined {
    return this.byKind.get(kind);
  }

  /** The sigil starting at `at` in `chars` (a function from index to character), longest first. */
  sigilAt(ch: (i: number) => string | undefined, at: number): SigilKind | undefined {
    return this.sigils.find((s) => [...s.sigil].every((c, k) => ch(at + k) === c));
  }

  /** The segment a reference makes: a typed built-in segment, or the third-party kind's object. */
  segment(kind: SigilKind, token: string): Segment {
    const raw = { kind: kind.kind, [kind.field]: token };
    if ((SEGMENT_FIELDS as Record<string, string>)[kind.kind] === kind.field) {
      const typed = SegmentSchema.safeParse(raw);
      if (typed.success) return typed.data;
    }
    return new UnknownSegment(raw);
  }

  /** What a segment holds as its reference: the advertised field, else `ref`, else its first string. */
  refOf(segment: Segment): string | undefined {
    const raw = segment instanceof UnknownSegment ? segment.raw : (segment as unknown as Record<string, unknown>);
    const kind = segmentKind(segment);
    const field = this.byKind.get(kind)?.field ?? (SEGMENT_FIELDS as Record<string, string>)[kind] ?? 'ref';
    for (const key of [field, 'ref', ...Object.keys(raw)]) {
      if (key !== 'kind' && typeof raw[key] === 'string') return raw[key] as string;
    }
    return undefined;
  }

  /** How the user writes this segment here (`@path`), or undefined when its kind has no sigil. */
  written(segment: Segment): { sigil: SigilKind; text: string } | undefined {
    const sigil = this.byKind.get(segmentKind(segment));
    const value = sigil ? fieldOf(segment, sigil.field) : undefined;
    return sigil && value !== undefined ? { sigil, text: `${sigil.sigil}${value}` } : undefined;
  }
}

function fieldOf(segment: Segment, field: string): string | undefined {
  const raw = segment instanceof UnknownSegment ? segment.raw : (segment as unknown as Record<string, unknown>);
  const value = raw[field];
  return typeof value === 'string' ? value : undefined;
}
