import { z } from 'zod';
import { splitForRetained } from './splitForRetained.js';
import { SUMMARY_SYSTEM, summaryItems, summaryRequestText } from './summaryPrompt.js';
import { type CompactResult, definePlugin, messageItem } from '../../core/api.js';

export const COMPACT_SUMMARY = 'yoi:compact-summary';

const Options = z
  .strictObject({
    /** Characters of one item kept in the transcript the model summarises. */
    itemChars: z.int().min(100).default(4000),
    /** Characters of the whole transcript (the oldest items beyond it are left out). */
    transcriptChars: z.int().min(1000).default(400_000),
  })
  .prefault({});

/**
 * The default compaction strategy (taps `compact`): the older part of the history is
 * summarised by the pod's own provider into a structured summary (completed tasks, active
 * task, decisions, user directives, current work); the most recent items that fit in
 * `compaction.retainedTokens` are kept verbatim, never separating a tool call from its result;
 * the most recently touched files are listed by path for the model to read again.
 */
export const compactSummary = definePlugin({
  name: COMPACT_SUMMARY,
  options: Options,
  apply(api, options) {
    api.hooks.compact.tapPromise(COMPACT_SUMMARY, async (request, ctx): Promise<CompactResult> => {
      const { items } = request;
      const cut = splitForRetained(items, request.retainedTokens, (item) => ctx.countTokens([item]));
      if (cut === 0) throw new Error('nothing to summarise: the history is one unfinished tool round');
      const text = summaryRequestText(items.slice(0, cut), request.recentFiles, {
        itemChars: options.itemChars,
        totalChars: options.transcriptChars,
      });
      const summary = await ctx.complete({ system: SUMMARY_SYSTEM, items: [messageItem('user', text)] });
      if (summary.trim() === '') throw new Error('the model returned an empty summary');
      return { items: [...summaryItems(summary, request.recentFiles), ...items.slice(cut)] };
    });
  },
});
