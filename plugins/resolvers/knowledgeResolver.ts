import path from 'node:path';
import { z } from 'zod';
import { KnowledgeRefKind } from './shared/builtinKinds.js';
import { completeSlugs } from './shared/completeSlugs.js';
import { DEFAULT_FILE_REF_BYTES, FileRefLimit } from './shared/fileRefLimit.js';
import { findDoc, type DocKind } from './shared/findDoc.js';
import { definePlugin, type Resolution } from '../../core/api.js';

const NAME = 'yoi:knowledge';
const KIND: DocKind = { noun: 'knowledge note', sigil: '#', segmentKind: 'knowledge_ref' };

export const KnowledgeOptionsSchema = z
  .strictObject({
    /** Where notes live, relative to the project directory. Default: the config's `knowledge.dir` (`.yoi/knowledge`). */
    dir: z.string().min(1).optional(),
    /** Most bytes of a note added to the context. Default: the config's `limits.fileRefBytes`. */
    maxBytes: z.int().min(1).optional(),
  })
  .prefault({});

/** `knowledge: { dir }` in the config. */
export const KnowledgeConfigSchema = z
  .strictObject({
    /** Knowledge notes for `#slug` references (`<dir>/<slug>.md`), relative to the project directory. */
    dir: z.string().min(1).default('.yoi/knowledge'),
  })
  .prefault({});

declare module '../../core/config/YoiConfigSchema.js' {
  interface PluginConfigSections {
    /** Knowledge notes for `#slug` references (`<dir>/<slug>.md`). Default `.yoi/knowledge`. */
    knowledge?: z.input<typeof KnowledgeConfigSchema>;
  }
}

/**
 * `knowledge_ref` segments (`#slug`): `<knowledge dir>/<slug>.md` as a `Knowledge: <slug>`
 * context item, its front matter `title` and `description` on top; also completes `#` slugs.
 */
export const knowledgeResolver = definePlugin({
  name: NAME,
  options: KnowledgeOptionsSchema,
  config: { key: 'knowledge', schema: KnowledgeConfigSchema },
  apply(api, options) {
    const limit = api.useOptional(FileRefLimit);
    // Relative to the pod's project directory (the config file's).
    const dirOf = (ctx: { projectDir: string }) => path.resolve(ctx.projectDir, options.dir ?? api.config.dir);
    // A folder configured inside `.yoi/` is still the user's data, not the pod's state.
    api.hooks.podInit.tapPromise(NAME, async (pod) => pod.services.scope.addUserData(dirOf(pod)));
    const kind = api.segmentKind(KnowledgeRefKind);
    kind.resolve(async (segment, ctx): Promise<Resolution> => {
      const maxBytes = options.maxBytes ?? limit()?.maxBytes ?? DEFAULT_FILE_REF_BYTES;
      const found = await findDoc(segment, ctx, { kind: KIND, dir: dirOf(ctx), maxBytes });
      if (!found.ok) return found.resolution;
      const { title, description } = found.data;
      const header = [title && `Title: ${title}`, description && `Description: ${description}`].filter(Boolean);
      const body = found.body.trim();
      const text = header.length ? `${header.join('\n')}\n\n${body}` : body;
      const warning = found.warnings.length ? found.warnings.join('; ') : undefined;
      return { type: 'context', label: `Knowledge: ${found.slug}`, text, ...(warning ? { warning } : {}) };
    });
    kind.complete(async (items, ctx) => {
      const mine = await completeSlugs(dirOf(ctx), ctx);
      return [...items, ...mine.filter((item) => !items.includes(item))];
    });
  },
});
