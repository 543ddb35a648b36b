import { z } from 'zod';
import { readRegularFile, requireWritableSize } from './shared/fileIo.js';
import { ReadTracker } from './shared/ReadTracker.js';
import { resolveToolPath } from './shared/resolveToolPath.js';
import { count } from './shared/count.js';
import { requireCurrent } from './shared/requireCurrent.js';
import { TempJournal } from './shared/TempJournal.js';
import { keepProtectedKeys } from './shared/protectedKeys.js';
import { writeFileAtomic } from './shared/writeFileAtomic.js';
import { definePlugin, refusalsAsResults, type Tool } from '../../core/api.js';

export const WRITE = 'yoi:write';

export const WriteInputSchema = z.object({
  file_path: z.string().min(1).describe('The file to write: absolute, or relative to the working directory.'),
  content: z.string().describe('The complete new content of the file.'),
});

/**
 * `Write`: creates a file, or replaces one the model has read (and that nobody changed since),
 * atomically.
 */
export const writeTool = definePlugin({
  name: WRITE,
  apply(api) {
    api.hooks.tools.for('Write').tap(WRITE, (): Tool<z.infer<typeof WriteInputSchema>> => ({
      name: 'Write',
      description:
        "Writes a file within the pod's write scope, creating missing directories. An existing file must have been Read " +
        'first and be unchanged since. Prefer Edit for changes to part of a file.',
      input: WriteInputSchema,
      execute: (input, ctx) =>
        refusalsAsResults(async () => {
          const file = resolveToolPath(ctx, input.file_path, 'write');
          const tracker = ReadTracker.of(ctx.services);
          return tracker.exclusive(file, async () => {
            const before = await readRegularFile(file);
            if (before !== undefined) requireCurrent(tracker, file, before.bytes);
            requireWritableSize(file, Buffer.byteLength(input.content, 'utf8'));
            const bytes = Buffer.from(input.content, 'utf8');
            keepProtectedKeys(ctx, file, before?.bytes, bytes);
            await writeFileAtomic(file, bytes, { mode: before?.mode, journal: TempJournal.of(ctx.services) });
            tracker.record(file, bytes);
            ctx.services.files?.touch(file, 'write');
            return {
              summary: `${before === undefined ? 'Created' : 'Overwrote'} ${file} (${count(bytes.length, 'byte')})`,
            };
          });
        }),
    }));
  },
});
