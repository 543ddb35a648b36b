import path from 'node:path';
import { z } from 'zod';
import { definePlugin } from '../../core/plugin/definePlugin.js';
import type { PodInfo } from '../../core/hooks/HookTypes.js';
import type { Resolution } from '../../core/pipeline/Resolution.js';
import { completeSlugs } from './shared/completeSlugs.js';
import { findDoc, type DocKind } from './shared/findDoc.js';
import { DEFAULT_FILE_REF_BYTES, DEFAULT_WORKFLOWS_DIR, resolverSettings } from './shared/resolverSettings.js';

const NAME = 'yoi:workflow';
const KIND: DocKind = { noun: 'workflow', sigil: '/', segmentKind: 'workflow_invoke' };

export const WorkflowOptionsSchema = z.strictObject({
  /** Where workflows live, relative to the project directory. Default: the config's `workflows.dir` (`.yoi/workflows`). */
  dir: z.string().min(1).optional(),
  /** Most bytes of a workflow added to the context. Default: the config's `limits.fileRefBytes`. */
  maxBytes: z.int().min(1).optional(),
}).prefault({});
type WorkflowOptions = z.output<typeof WorkflowOptionsSchema>;

/**
 * `workflow_invoke` segments (`/slug`): the body of `<workflows dir>/<slug>.md` (front matter
 * removed) becomes a system instruction for this run, labelled `Workflow: <slug>`; also
 * completes `/` slugs.
 */
export const workflowResolver = definePlugin({
  name: NAME,
  options: WorkflowOptionsSchema,
  apply(host, options) {
    host.hooks.resolveSegment.for('workflow_invoke').tapPromise(NAME, async (segment, ctx): Promise<Resolution> => {
      const maxBytes = options.maxBytes ?? resolverSettings(ctx.services).limits?.fileRefBytes ?? DEFAULT_FILE_REF_BYTES;
      const found = await findDoc(segment, ctx, { kind: KIND, dir: workflowsDir(options, ctx), maxBytes });
      if (!found.ok) return found.resolution;
      const text = found.body.trim();
      if (text === '') return { type: 'unresolved', reason: `workflow /${found.slug} has no instructions (its body is empty)`, ref: found.slug };
      const warning = found.warnings.length ? found.warnings.join('; ') : undefined;
      return { type: 'context', role: 'instruction', label: `Workflow: ${found.slug}`, text, ...(warning ? { warning } : {}) };
    });
    host.hooks.completeSegment.for('workflow_invoke').tapPromise(NAME, async (items, ctx) => {
      const mine = await completeSlugs(workflowsDir(options, ctx), ctx);
      return [...items, ...mine.filter((item) => !items.includes(item))];
    });
  },
});

function workflowsDir(options: WorkflowOptions, ctx: PodInfo): string {
  return path.resolve(ctx.projectDir, options.dir ?? resolverSettings(ctx.services).workflows?.dir ?? DEFAULT_WORKFLOWS_DIR);
}
