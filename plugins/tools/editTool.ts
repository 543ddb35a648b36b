import { z } from 'zod';
import { readRegularFile, requireWritableSize } from './shared/fileIo.js';
import { numberLines, splitLines } from './shared/lines.js';
import { ReadTracker } from './shared/ReadTracker.js';
import { requireCurrent } from './shared/requireCurrent.js';
import { resolveToolPath } from './shared/resolveToolPath.js';
import { count } from './shared/count.js';
import { TempJournal } from './shared/TempJournal.js';
import { keepProtectedKeys } from './shared/protectedKeys.js';
import { writeFileAtomic } from './shared/writeFileAtomic.js';
import { definePlugin, refusalsAsResults, type Tool, ToolRefusal } from '../../core/api.js';

export const EDIT = 'yoi:edit';
/** Lines of context shown around an edit. */
const CONTEXT_LINES = 3;

export const EditInputSchema = z
  .object({
    file_path: z.string().min(1).describe('The file to edit: absolute, or relative to the working directory.'),
    old_string: z.string().min(1).describe('The exact text to replace; it must occur once unless replace_all is true.'),
    new_string: z.string().describe('The replacement text (different from old_string).'),
    replace_all: z.boolean().default(false).describe('Replace every occurrence instead of exactly one.'),
  })
  .refine((i) => i.old_string !== i.new_string, { path: ['new_string'], message: 'must differ from old_string' });

/**
 * `Edit`: replaces an exact string in a file the model has read (and nobody changed since),
 * atomically; shows the edited region numbered like Read.
 */
export const editTool = definePlugin({
  name: EDIT,
  apply(api) {
    api.hooks.tools.for('Edit').tap(EDIT, (): Tool<z.infer<typeof EditInputSchema>> => ({
      name: 'Edit',
      description:
        "Replaces old_string with new_string in a file within the pod's write scope. The file must have been Read first and " +
        'be unchanged since; old_string must match exactly (whitespace included) and occur once, or pass replace_all.',
      input: EditInputSchema,
      execute: (input, ctx) =>
        refusalsAsResults(async () => {
          const file = resolveToolPath(ctx, input.file_path, 'write');
          const tracker = ReadTracker.of(ctx.services);
          return tracker.exclusive(file, async () => {
            const before = await readRegularFile(file);
            if (before === undefined) throw new ToolRefusal(`${file} does not exist (use Write to create it)`);
            requireCurrent(tracker, file, before.bytes);
            let text: string;
            try {
              text = new TextDecoder('utf-8', { fatal: true }).decode(before.bytes);
            } catch {
              throw new ToolRefusal(`${file} is not UTF-8 text; Edit changes text files only`);
            }
            const at = occurrences(text, input.old_string);
            if (at.length === 0) throw new ToolRefusal(`old_string was not found in ${file}`);
            if (at.length > 1 && !input.replace_all) {
              throw new ToolRefusal(
                `old_string occurs ${at.length} times in ${file}; pass replace_all=true or include more context to make it unique`,
              );
            }
            // Sized before it is built: a replace_all can multiply a file (4 MiB into 400 MiB).
            const growth = Buffer.byteLength(input.new_string) - Buffer.byteLength(input.old_string);
            requireWritableSize(file, before.bytes.length + (input.replace_all ? at.length : 1) * growth);
            const after = input.replace_all
              ? text.split(input.old_string).join(input.new_string)
              : text.slice(0, at[0]) + input.new_string + text.slice(at[0] + input.old_string.length);
            const bytes = Buffer.from(after, 'utf8');
            keepProtectedKeys(ctx, file, before.bytes, bytes);
            await writeFileAtomic(file, bytes, { mode: before.mode, journal: TempJournal.of(ctx.services) });
            tracker.record(file, bytes);
            ctx.services.files?.touch(file, 'write');
            const replaced = input.replace_all ? at.length : 1;
            return {
              summary: `Edited ${file} (${count(replaced, 'replacement')})`,
              content: excerpt(after, at[0], input.new_string.length),
            };
          });
        }),
    }));
  },
});

/** Start offsets of the non-overlapping occurrences of `needle`. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/** The lines of the first replacement with a few lines around, numbered like Read. */
function excerpt(text: string, start: number, length: number): string {
  const first = lineOf(text, start);
  const last = lineOf(text, Math.max(start, start + length - 1));
  const lines = splitLines(text);
  const from = Math.max(0, first - CONTEXT_LINES);
  return numberLines(lines.slice(from, Math.min(lines.length, last + CONTEXT_LINES + 1)), from);
}

function lineOf(text: string, offset: number): number {
  let line = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
