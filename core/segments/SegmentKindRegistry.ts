import { YoiError } from '../errors/YoiError.js';
import type { SegmentKind } from './defineSegmentKind.js';

/** What the v2 `welcome` says about one kind. */
export interface SegmentKindInfo {
  kind: string;
  sigil?: string;
  field?: string;
  description?: string;
}

/** The segment kinds declared in one host, with the plugin that declared each. */
export class SegmentKindRegistry {
  readonly #kinds = new Map<string, { kind: SegmentKind; plugin: string }>();

  declare(kind: SegmentKind, plugin: string): void {
    const existing = this.#kinds.get(kind.kind);
    if (existing?.kind === kind) return; // the same declaration, shared by two plugins
    if (existing) {
      throw new YoiError(
        'YOI_ERR_SEGMENT_KIND',
        `plugin ${plugin} declares segment kind ${kind.kind}, which plugin ${existing.plugin} already declares`,
      );
    }
    const clash = kind.sigil && [...this.#kinds.values()].find((k) => k.kind.sigil === kind.sigil);
    if (clash) {
      throw new YoiError(
        'YOI_ERR_SEGMENT_KIND',
        `plugin ${plugin}: sigil ${kind.sigil} of segment kind ${kind.kind} is already used by ${clash.kind.kind} (plugin ${clash.plugin})`,
      );
    }
    this.#kinds.set(kind.kind, { kind, plugin });
  }

  get(kind: string): SegmentKind | undefined {
    return this.#kinds.get(kind)?.kind;
  }

  pluginOf(kind: string): string | undefined {
    return this.#kinds.get(kind)?.plugin;
  }

  /** The kind a sigil stands for. */
  bySigil(sigil: string): SegmentKind | undefined {
    for (const { kind } of this.#kinds.values()) if (kind.sigil === sigil) return kind;
    return undefined;
  }

  /** Welcome entries for `kinds` (those with a resolver), declared details where known. */
  describe(kinds: readonly string[]): SegmentKindInfo[] {
    return kinds.map((name) => {
      const k = this.get(name);
      return {
        kind: name,
        ...(k?.sigil ? { sigil: k.sigil } : {}),
        ...(k?.field ? { field: k.field } : {}),
        ...(k?.description ? { description: k.description } : {}),
      };
    });
  }
}
