import path from 'node:path';
import { displayRef } from './displayRef.js';
import { listSlugs } from './listSlugs.js';
import { parseFrontMatter, type FrontMatter } from './parseFrontMatter.js';
import { readTextFile } from './readTextFile.js';
import { segmentField } from './segmentField.js';
import { suggestSlugs } from './suggestSlugs.js';
import { slugProblem } from './slugProblem.js';
import { canonicalPath, isWithin, type Resolution, type ResolveContext } from '../../../core/api.js';

/** Which kind of document is looked up: words for reasons, the sigil users type. */
export interface DocKind {
  /** `knowledge note`, `workflow`. */
  readonly noun: string;
  /** `#` or `/`. */
  readonly sigil: string;
  /** Segment kind, for malformed-segment reasons. */
  readonly segmentKind: string;
}

export type FoundDoc =
  | {
      readonly ok: true;
      readonly slug: string;
      readonly data: FrontMatter;
      readonly body: string;
      readonly warnings: readonly string[];
    }
  | { readonly ok: false; readonly resolution: Resolution };

/**
 * Finds `<dir>/<slug>.md` for a `#slug` or `/slug` segment and splits its front matter. The
 * slug is validated first (it can only name a file inside `dir`); a document is read only when
 * it lies in the pod's read scope (a symlink may take it out of `dir`, a `deny` rule may cover
 * part of `dir`). An unknown slug gives up to three "did you mean" suggestions from the existing
 * documents the pod may read.
 */
export async function findDoc(
  segment: unknown,
  ctx: ResolveContext,
  { kind, dir, maxBytes }: { kind: DocKind; dir: string; maxBytes: number },
): Promise<FoundDoc> {
  const fail = (reason: string, ref?: string): FoundDoc => ({
    ok: false,
    resolution: { type: 'unresolved', reason, ...(ref === undefined ? {} : { ref }) },
  });
  const slug = segmentField(segment, 'slug');
  if (typeof slug !== 'string') return fail(`malformed ${kind.segmentKind} segment: \`slug\` is not a string`);
  const ref = displayRef(slug);
  const problem = slugProblem(slug);
  if (problem) return fail(`invalid ${kind.noun} name: ${problem}`, ref);
  if (ctx.signal.aborted) return fail('cancelled', ref);

  const home = canonicalPath(dir) ?? path.resolve(dir);
  const file = canonicalPath(`${slug}.md`, home);
  if (file === undefined) return fail(`${kind.sigil}${ref} cannot be resolved`, ref);
  // The scope decides inside the folder too: a `deny` on part of it holds as it does for @file
  // (the rules only, before any file is looked at, so a denied name's existence is not told).
  if (!ctx.services.scope.canRead(file)) {
    return fail(
      isWithin(file, home)
        ? `${kind.sigil}${ref} is not readable: outside the pod's scope`
        : `${kind.sigil}${ref} leads outside ${shownDir(dir, ctx)} and the pod's scope`,
      ref,
    );
  }

  const read = await readTextFile(file, { maxBytes, signal: ctx.signal });
  switch (read.kind) {
    case 'missing':
    case 'directory': {
      const suggestions = suggestSlugs(slug, await listSlugs(home, ctx.signal, readableIn(ctx)));
      const hint = suggestions.length ? `; did you mean ${suggestions.map((s) => kind.sigil + s).join(', ')}?` : '';
      return fail(`no ${kind.noun} ${kind.sigil}${ref} in ${shownDir(dir, ctx)}${hint}`, ref);
    }
    case 'text': {
      const doc = parseFrontMatter(read.text);
      const warnings: string[] = [];
      if (doc.problem) warnings.push(`${kind.sigil}${ref}: ${doc.problem}; the document was used without it`);
      if (read.shownBytes < read.size) {
        warnings.push(
          `${kind.sigil}${ref} was truncated to its first ${read.shownBytes} of ${read.size} bytes (limit ${maxBytes})`,
        );
      }
      const body =
        read.shownBytes < read.size
          ? `${doc.body}\n\n[truncated: ${read.size - read.shownBytes} of ${read.size} bytes cut]`
          : doc.body;
      return { ok: true, slug, data: doc.data, body, warnings };
    }
    case 'binary':
      return fail(`${kind.sigil}${ref} is a binary file; not included`, ref);
    case 'special':
      return fail(`${kind.sigil}${ref} is ${read.what}, not a regular file; not opened`, ref);
    case 'denied':
      return fail(`${kind.sigil}${ref}: permission denied`, ref);
    case 'aborted':
      return fail('cancelled', ref);
    case 'error':
      return fail(`${kind.sigil}${ref} cannot be read (${read.code})`, ref);
  }
}

/** The directory as users configured it: relative to the project when inside it. */
function shownDir(dir: string, ctx: ResolveContext): string {
  const relative = path.relative(ctx.projectDir, dir);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : dir;
}

/** Whether a listed document (a canonical path in a verified directory) is in the pod's read scope. */
export function readableIn(ctx: { services: { scope: { permissionAtCanonical(p: string): unknown } } }) {
  return (file: string) => ctx.services.scope.permissionAtCanonical(file) !== undefined;
}
