import { createRequire } from 'node:module';
import { z } from 'zod';

// `yaml` is loaded on first use: importing it costs every pod ~40 ms of start-up, and only
// knowledge and workflow documents with front matter need it.
let parseYaml: typeof import('yaml').parse | undefined;
const loadYaml = () => (parseYaml ??= (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse);

/** The front matter keys yoi reads; others are kept out of the model's context. */
const FrontMatterSchema = z.object({
  title: z.string().optional().catch(undefined),
  description: z.string().optional().catch(undefined),
});
export type FrontMatter = z.infer<typeof FrontMatterSchema>;

export interface ParsedDoc {
  readonly data: FrontMatter;
  readonly body: string;
  /** Why the front matter was ignored (not YAML, not a mapping), if it was. */
  readonly problem?: string;
}

/** Front matter longer than this is not looked for (the document is then all body). */
const MAX_FRONT_MATTER_CHARS = 64 * 1024;
const OPENING = /^---[ \t]*\r?$/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*\r?$/;

/**
 * Splits optional YAML front matter from a markdown document. A document without it is all
 * body; a front matter that is not valid YAML (or not a mapping) is dropped with a `problem`
 * rather than failing the whole document.
 */
export function parseFrontMatter(text: string): ParsedDoc {
  const fence = findFence(text);
  if (!fence) return { data: {}, body: text };
  const body = text.slice(fence.end);
  let raw: unknown;
  try {
    // A small alias budget keeps a "billion laughs" document from expanding; warnings are
    // not printed (errors still throw).
    raw = loadYaml()(fence.yaml, { maxAliasCount: 50, prettyErrors: false, logLevel: 'error' });
  } catch (error) {
    return { data: {}, body, problem: `front matter is not valid YAML (${firstLine(error)})` };
  }
  if (raw === null || raw === undefined) return { data: {}, body };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { data: {}, body, problem: 'front matter is not a mapping' };
  return { data: FrontMatterSchema.parse(raw), body };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

/** Finds `---` on the first line and the `---`/`...` line closing it, scanning lines once. */
function findFence(text: string): { yaml: string; end: number } | undefined {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineEnd = text.indexOf('\n', start);
  if (lineEnd === -1 || !OPENING.test(text.slice(start, lineEnd))) return undefined;
  const yamlStart = lineEnd + 1;
  for (
    let lineStart = yamlStart;
    lineStart - yamlStart <= MAX_FRONT_MATTER_CHARS && lineStart <= text.length;
    lineStart = lineEnd + 1
  ) {
    lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    if (CLOSING.test(text.slice(lineStart, lineEnd))) {
      return { yaml: text.slice(yamlStart, lineStart), end: Math.min(lineEnd + 1, text.length) };
    }
  }
  return undefined;
}
