import { z } from 'zod';
import { FileRefKind } from '../shared/builtinKinds.js';
import { FileRefBytesSchema, FileRefLimit } from '../shared/fileRefLimit.js';
import { completeFilePaths } from './completeFilePaths.js';
import { resolveFileRef } from './resolveFileRef.js';
import { definePlugin } from '../../../core/api.js';

const NAME = 'yoi:file-ref';

export const FileRefOptionsSchema = z
  .strictObject({
    /** Most bytes of a file added to the context. Default: the config's `limits.fileRefBytes` (256 KiB). */
    maxBytes: z.int().min(1).optional(),
    /** Most entries shown for a directory. */
    maxEntries: z.int().min(1).max(5000).default(200),
  })
  .prefault({});

/**
 * `file_ref` segments (`@path`): the file's text as a `File: <path>` context item, read only
 * inside the pod's read scope; also completes `@` paths for clients. Owns `limits.fileRefBytes`
 * and offers it to the other reference resolvers.
 */
export const fileRefResolver = definePlugin({
  name: NAME,
  options: FileRefOptionsSchema,
  config: { key: 'limits.fileRefBytes', schema: FileRefBytesSchema },
  apply(api, options) {
    api.provide(FileRefLimit, { maxBytes: api.config });
    const maxBytes = options.maxBytes ?? api.config;
    const kind = api.segmentKind(FileRefKind);
    kind.resolve((segment, ctx) => resolveFileRef(segment, ctx, { maxBytes, maxEntries: options.maxEntries }));
    kind.complete(async (items, ctx) => {
      const mine = await completeFilePaths(ctx);
      return [...items, ...mine.filter((item) => !items.includes(item))];
    });
  },
});
