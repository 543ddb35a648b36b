import path from 'node:path';
import { readableIn } from './findDoc.js';
import { listSlugs } from './listSlugs.js';
import { canonicalPath, type CompleteContext } from '../../../core/api.js';

/** Slugs of the documents in `dir` starting with `ctx.prefix`, sorted, at most `ctx.limit`. */
export async function completeSlugs(dir: string, ctx: CompleteContext): Promise<string[]> {
  const prefix = typeof ctx.prefix === 'string' ? ctx.prefix : '';
  const limit = Number.isInteger(ctx.limit) && ctx.limit > 0 ? ctx.limit : 100;
  const slugs = await listSlugs(canonicalPath(dir) ?? path.resolve(dir), ctx.signal, readableIn(ctx));
  return slugs.filter((slug) => slug.startsWith(prefix)).slice(0, limit);
}
