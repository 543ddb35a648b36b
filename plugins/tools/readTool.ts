import { z } from 'zod';
import { looksBinary, readRegularFile } from './shared/fileIo.js';
import { DEFAULT_READ_LINES, numberLines, splitLines } from './shared/lines.js';
import { ReadTracker } from './shared/ReadTracker.js';
import { resolveToolPath } from './shared/resolveToolPath.js';
import { count } from './shared/count.js';
import { definePlugin, refusalsAsResults, type Tool, ToolRefusal } from '../../core/api.js';

export const READ = 'yoi:read';

export const ReadInputSchema = z.object({
  file_path: z.string().min(1).describe('The file to read: absolute, or relative to the working directory.'),
  offset: z.int().min(0).optional().describe('The 0-based line to start at (for files too long to read at once).'),
  limit: z.int().min(1).optional().describe(`How many lines to read (default ${DEFAULT_READ_LINES}).`),
});

/**
 * `Read`: a text file's lines numbered like `cat -n`. Records what was read, so Write and Edit
 * can check that the model saw the current content.
 */
export const readTool = definePlugin({
  name: READ,
  apply(api) {
    api.hooks.tools.for('Read').tap(READ, (): Tool<z.infer<typeof ReadInputSchema>> => ({
      name: 'Read',
      description:
        "Reads a text file within the pod's scope. Lines come numbered like `cat -n` (number, tab, line), " +
        `${DEFAULT_READ_LINES} lines from the start unless offset/limit are given. Read a file before you Write or Edit it.`,
      input: ReadInputSchema,
      execute: (input, ctx) =>
        refusalsAsResults(async () => {
          const file = resolveToolPath(ctx, input.file_path, 'read');
          const bytes = (await readRegularFile(file))?.bytes;
          if (bytes === undefined) throw new ToolRefusal(`${file} does not exist`);
          if (looksBinary(bytes)) throw new ToolRefusal(`${file} is a binary file; Read shows text only`);
          ReadTracker.of(ctx.services).record(file, bytes);
          ctx.services.files?.touch(file, 'read');

          const lines = splitLines(bytes.toString('utf8'));
          const start = input.offset ?? 0;
          const shown = lines.slice(start, start + (input.limit ?? DEFAULT_READ_LINES));
          const content = numberLines(shown, start);
          if (start === 0 && shown.length === lines.length)
            return { summary: `Read ${count(shown.length, 'line')} from ${file}`, content };
          if (shown.length === 0)
            return {
              summary: `Read 0 lines of ${lines.length} from ${file} (offset ${start} is past the end)`,
              content,
            };
          return {
            summary: `Read ${count(shown.length, 'line')} [${start + 1}..${start + shown.length}] of ${lines.length} from ${file}`,
            content,
          };
        }),
    }));
  },
});
