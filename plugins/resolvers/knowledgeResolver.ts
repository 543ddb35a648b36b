import path from 'node:path';
import { z } from 'zod';
import { definePlugin } from '../../core/plugin/definePlugin.js';
import type { PodInfo } from '../../core/hooks/HookTypes.js';
import type { Resolution } from '../../core/pipeline/Resolution.js';
import { completeSlugs } from './shared/completeSlugs.js';
import { findDoc, type DocKind } from './shared/findDoc.js';
import { DEFAULT_FILE_REF_BYTES, DEFAULT_KNOWLEDGE_DIR, resolverSettings } from './shared/resolverSettings.js';

const NAME = 'yoi:knowledge';
const KIND: DocKind = { noun: 'knowledge note', sigil: '#', segmentKind: 'knowledge_ref' };

export const KnowledgeOptionsSchema = z.strictObject({
  /** Where notes live, relative to the project directory. Default: the config's `knowledge.dir` (`.yoi/knowledge`). */
  dir: z.string().min(1).optional(),
  /** Most bytes of a note added to the context. Default: the config's `limits.fileRefBytes`. */
  maxBytes: z.int().min(1).optional(),
}).prefault({});
type KnowledgeOptions = z.output<typeof KnowledgeOptionsSchema>;

/**
 * `knowledge_ref` segments (`#slug`): `<knowledge dir>/<slug>.md` as a `Knowledge: <slug>`
 * context item, its front matter `title` and `description` on top; also completes `#` slugs.
 */
export const knowledgeResolver = definePlugin({
  name: NAME,
  options: KnowledgeOptionsSchema,
  apply(host, options) {
    host.hooks.resolveSegment.for('knowledge_ref').tapPromise(NAME, async (segment, ctx): Promise<Resolution> => {
      const maxBytes = options.maxBytes ?? resolverSettings(ctx.services).limits?.fileRefBytes ?? DEFAULT_FILE_REF_BYTES;
      const found = await findDoc(segment, ctx, { kind: KIND, dir: knowledgeDir(options, ctx), maxBytes });
      if (!found.ok) return found.resolution;
      const { title, description } = found.data;
      const header = [title && `Title: ${title}`, description && `Description: ${description}`].filter(Boolean);
      const body = found.body.trim();
      const text = header.length ? `${header.join('\n')}\n\n${body}` : body;
      const warning = found.warnings.length ? found.warnings.join('; ') : undefined;
      return { type: 'context', label: `Knowledge: ${found.slug}`, text, ...(warning ? { warning } : {}) };
    });
    host.hooks.completeSegment.for('knowledge_ref').tapPromise(NAME, async (items, ctx) => {
      const mine = await completeSlugs(knowledgeDir(options, ctx), ctx);
      return [...items, ...mine.filter((item) => !items.includes(item))];
    });
  },
});

function knowledgeDir(options: KnowledgeOptions, ctx: PodInfo): string {
  return path.resolve(ctx.projectDir, options.dir ?? resolverSettings(ctx.services).knowledge?.dir ?? DEFAULT_KNOWLEDGE_DIR);
}
