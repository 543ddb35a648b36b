import path from 'node:path';
import { z } from 'zod';
import { requireDirectory, safePattern } from './shared/searchBase.js';
import { resolveToolPath } from './shared/resolveToolPath.js';
import { TEMP_FILES_GLOB } from './shared/tempFiles.js';
import { count } from './shared/count.js';
import { globInWorker } from './glob/globInWorker.js';
import { definePlugin, lstatListed, refusalsAsResults, type Tool } from '../../core/api.js';

export const GLOB = 'yoi:glob';
/** Most paths Glob returns (the newest). */
export const GLOB_LIMIT = 1000;

export const GlobInputSchema = z.object({
  pattern: z.string().min(1).describe('Glob pattern relative to path, e.g. "**/*.ts" or "src/**/test_*.py".'),
  path: z.string().min(1).optional().describe('Directory to search (default: the working directory).'),
});

/**
 * `Glob`: files whose path (relative to the search directory) matches a pattern, newest first.
 * Hidden files are included and ignore files are not consulted (as yoi did); `.git` internals
 * and the temp files of atomic writes are skipped. Symlinks are not followed, only paths the
 * pod may read are listed, and each is confirmed in its verified directory (`lstatListed`). The
 * walk runs in a worker thread, bounded in time and memory (`globInWorker`).
 */
export const globTool = definePlugin({
  name: GLOB,
  apply(api) {
    api.hooks.tools.for('Glob').tap(GLOB, (): Tool<z.infer<typeof GlobInputSchema>> => ({
      name: 'Glob',
      description:
        'Finds files by glob pattern (e.g. "**/*.ts") under a directory (default: the working directory), newest first, ' +
        `at most ${GLOB_LIMIT}. Returns absolute paths, one per line.`,
      input: GlobInputSchema,
      execute: (input, ctx) =>
        refusalsAsResults(async () => {
          const pattern = safePattern(input.pattern);
          const base = resolveToolPath(ctx, input.path ?? ctx.cwd, 'read');
          await requireDirectory(base);
          const found = await globInWorker({ pattern, cwd: base, ignore: ['**/.git/**', TEMP_FILES_GLOB] }, ctx.signal);
          const scope = ctx.services.scope;
          const readable = found.map((f) => path.normalize(f)).filter((f) => scope.canRead(f));
          // The walk read directories by path; list only what is in the verified directories.
          const confirmed = await lstatListed(readable, ctx.signal);
          const dated = readable.flatMap((file) => {
            const stats = confirmed.get(file);
            return stats && !stats.isDirectory() ? [{ file, mtime: stats.mtimeMs }] : [];
          });
          if (dated.length === 0) return { summary: `No files found matching ${input.pattern}` };
          dated.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : 1));
          const shown = dated.slice(0, GLOB_LIMIT);
          const summary =
            dated.length > GLOB_LIMIT
              ? `Found ${dated.length} files matching ${input.pattern} (showing the ${GLOB_LIMIT} newest)`
              : `Found ${count(dated.length, 'file')} matching ${input.pattern}`;
          return { summary, content: shown.map((d) => d.file).join('\n') };
        }),
    }));
  },
});
