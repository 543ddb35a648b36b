import path from 'node:path';
import { z } from 'zod';
import { WorkflowInvokeKind } from './shared/builtinKinds.js';
import { completeSlugs } from './shared/completeSlugs.js';
import { DEFAULT_FILE_REF_BYTES, FileRefLimit } from './shared/fileRefLimit.js';
import { findDoc, type DocKind } from './shared/findDoc.js';
import { definePlugin, type Resolution } from '../../core/api.js';

const NAME = 'yoi:workflow';
const KIND: DocKind = { noun: 'workflow', sigil: '/', segmentKind: 'workflow_invoke' };

export const WorkflowOptionsSchema = z
  .strictObject({
    /** Where workflows live, relative to the project directory. Default: the config's `workflows.dir` (`.yoi/workflows`). */
    dir: z.string().min(1).optional(),
    /** Most bytes of a workflow added to the context. Default: the config's `limits.fileRefBytes`. */
    maxBytes: z.int().min(1).optional(),
  })
  .prefault({});

/** `workflows: { dir }` in the config. */
export const WorkflowsConfigSchema = z
  .strictObject({
    /** Workflows for `/slug` invocations (`<dir>/<slug>.md`), relative to the project directory. */
    dir: z.string().min(1).default('.yoi/workflows'),
  })
  .prefault({});

declare module '../../core/config/YoiConfigSchema.js' {
  interface PluginConfigSections {
    /** Workflows for `/slug` invocations (`<dir>/<slug>.md`). Default `.yoi/workflows`. */
    workflows?: z.input<typeof WorkflowsConfigSchema>;
  }
}

/**
 * `workflow_invoke` segments (`/slug`): the body of `<workflows dir>/<slug>.md` (front matter
 * removed) becomes a system instruction for this run, labelled `Workflow: <slug>`; also
 * completes `/` slugs.
 */
export const workflowResolver = definePlugin({
  name: NAME,
  options: WorkflowOptionsSchema,
  config: { key: 'workflows', schema: WorkflowsConfigSchema },
  apply(api, options) {
    const limit = api.useOptional(FileRefLimit);
    // Relative to the pod's project directory (the config file's).
    const dirOf = (ctx: { projectDir: string }) => path.resolve(ctx.projectDir, options.dir ?? api.config.dir);
    // A folder configured inside `.yoi/` is still the user's data, not the pod's state.
    api.hooks.podInit.tapPromise(NAME, async (pod) => pod.services.scope.addUserData(dirOf(pod)));
    const kind = api.segmentKind(WorkflowInvokeKind);
    kind.resolve(async (segment, ctx): Promise<Resolution> => {
      const maxBytes = options.maxBytes ?? limit()?.maxBytes ?? DEFAULT_FILE_REF_BYTES;
      const found = await findDoc(segment, ctx, { kind: KIND, dir: dirOf(ctx), maxBytes });
      if (!found.ok) return found.resolution;
      const text = found.body.trim();
      if (text === '')
        return {
          type: 'unresolved',
          reason: `workflow /${found.slug} has no instructions (its body is empty)`,
          ref: found.slug,
        };
      const warning = found.warnings.length ? found.warnings.join('; ') : undefined;
      return {
        type: 'context',
        role: 'instruction',
        label: `Workflow: ${found.slug}`,
        text,
        ...(warning ? { warning } : {}),
      };
    });
    kind.complete(async (items, ctx) => {
      const mine = await completeSlugs(dirOf(ctx), ctx);
      return [...items, ...mine.filter((item) => !items.includes(item))];
    });
  },
});
