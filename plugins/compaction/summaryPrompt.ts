import { type HistoryItem, itemText } from '../../core/api.js';

/** The sections every summary has, in order. */
export const SUMMARY_SECTIONS = [
  'Completed Tasks',
  'Active Task',
  'Key Decisions',
  'User Directives',
  'Current Work',
] as const;

/** First line of the system item that carries a summary into the new session. */
export const SUMMARY_HEADER = '[Compacted context summary]';

export const SUMMARY_SYSTEM = [
  'You compact the conversation of a coding agent so that it can continue its work in a new session',
  'that starts from your summary alone. Write a structured summary in Markdown with exactly these',
  `sections, in this order: ${SUMMARY_SECTIONS.map((s) => `## ${s}`).join(', ')}.`,
  'Completed Tasks: what was finished, with outcomes. Active Task: what is being worked on now and',
  'what remains. Key Decisions: choices made and why. User Directives: every instruction and',
  'preference the user gave, verbatim where short. Current Work: the exact state of the last steps',
  '(files, commands, errors) so the work resumes without repeating itself.',
  'Keep names, paths, identifiers and numbers exact. Be concise: at most about 1500 words.',
  'Reply with the summary only.',
].join('\n');

export interface TranscriptLimits {
  /** Characters kept of one item's text (longer text is cut in the middle). */
  readonly itemChars: number;
  /** Characters of the whole transcript; the oldest items beyond it are left out. */
  readonly totalChars: number;
}

/**
 * The user message of a summary request: the conversation to summarise, one `[Role] text`
 * block per item, and the recently touched files. An earlier summary (the first item of a
 * compacted session) is always kept; beyond `totalChars` the oldest other items are left out
 * and the transcript says how many.
 */
export function summaryRequestText(
  items: readonly HistoryItem[],
  recentFiles: readonly string[],
  limits: TranscriptLimits,
): string {
  const blocks = items.map((item) => renderItem(item, limits.itemChars));
  const keepFirst =
    items[0]?.type === 'message' && items[0].role === 'system' && itemText(items[0]).startsWith(SUMMARY_HEADER);
  const head = keepFirst ? [blocks[0]] : [];
  let budget = limits.totalChars - (head[0]?.length ?? 0);
  const tail: string[] = [];
  for (let i = blocks.length - 1; i >= head.length; i--) {
    if (blocks[i].length + 2 > budget && tail.length > 0) break;
    tail.push(blocks[i]);
    budget -= blocks[i].length + 2;
  }
  tail.reverse();
  const omitted = blocks.length - head.length - tail.length;
  const conversation = [
    ...head,
    ...(omitted > 0 ? [`[... ${omitted} earlier item(s) omitted ...]`] : []),
    ...tail,
  ].join('\n\n');
  const files =
    recentFiles.length > 0 ? `## Recently touched files\n${recentFiles.map((f) => `- ${f}`).join('\n')}\n\n` : '';
  return `Summarise the conversation below into a structured summary for the next session.\n\n${files}## Conversation\n${conversation}`;
}

/** The items that open the new session: the summary, then the recent files as references. */
export function summaryItems(summary: string, recentFiles: readonly string[]): HistoryItem[] {
  const items: HistoryItem[] = [
    { type: 'message', role: 'system', content: [{ type: 'text', text: `${SUMMARY_HEADER}\n\n${summary.trim()}` }] },
  ];
  if (recentFiles.length > 0) {
    const list = recentFiles.map((f) => `- ${f}`).join('\n');
    const text = `[Referenced files — touched before compaction, contents not included]\n${list}\nRead them again if you need their current contents.`;
    items.push({ type: 'message', role: 'system', content: [{ type: 'text', text }] });
  }
  return items;
}

function renderItem(item: HistoryItem, max: number): string {
  switch (item.type) {
    case 'message': {
      const role = item.role === 'user' ? 'User' : item.role === 'assistant' ? 'Assistant' : 'System';
      return `[${role}] ${clip(itemText(item), max)}`;
    }
    case 'tool_call':
      return `[ToolCall] ${item.name} ${clip(item.arguments, Math.min(max, 500))}`;
    case 'tool_result': {
      const body = item.content ? `\n${clip(item.content, Math.min(max, 1000))}` : '';
      return `[ToolResult${item.is_error ? ' error' : ''}] ${item.summary}${body}`;
    }
  }
}

/**
 * Keeps the head and the end of a long text (both tend to matter: the ask and the outcome), cut
 * between characters, never inside a surrogate pair (half an emoji is not text any client reads).
 */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  let head = half;
  if (isHighSurrogate(text.charCodeAt(head - 1))) head--;
  let tail = text.length - half;
  if (isLowSurrogate(text.charCodeAt(tail))) tail++;
  return `${text.slice(0, head)}\n[... ${tail - head} characters cut ...]\n${text.slice(tail)}`;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
