import { z } from 'zod';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import { DEFAULT_FILE_REF_BYTES, resolverSettings } from '../shared/resolverSettings.js';
import { completeFilePaths } from './completeFilePaths.js';
import { resolveFileRef } from './resolveFileRef.js';

const NAME = 'yoi:file-ref';

export const FileRefOptionsSchema = z.strictObject({
  /** Most bytes of a file added to the context. Default: the config's `limits.fileRefBytes` (256 KiB). */
  maxBytes: z.int().min(1).optional(),
  /** Most entries shown for a directory. */
  maxEntries: z.int().min(1).max(5000).default(200),
}).prefault({});

/**
 * `file_ref` segments (`@path`): the file's text as a `File: <path>` context item, read only
 * inside the pod's read scope; also completes `@` paths for clients.
 */
export const fileRefResolver = definePlugin({
  name: NAME,
  options: FileRefOptionsSchema,
  apply(host, options) {
    host.hooks.resolveSegment.for('file_ref').tapPromise(NAME, async (segment, ctx) => {
      const maxBytes = options.maxBytes ?? resolverSettings(ctx.services).limits?.fileRefBytes ?? DEFAULT_FILE_REF_BYTES;
      return resolveFileRef(segment, ctx, { maxBytes, maxEntries: options.maxEntries });
    });
    host.hooks.completeSegment.for('file_ref').tapPromise(NAME, async (items, ctx) => {
      const mine = await completeFilePaths(ctx);
      return [...items, ...mine.filter((item) => !items.includes(item))];
    });
  },
});
