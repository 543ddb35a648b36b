import { z } from 'zod';

/** A text part of a message. */
export const ContentPartSchema = z.object({ type: z.literal('text'), text: z.string() });

/**
 * One provider-neutral conversation item, in the JSON shape of the Rust original's `Item`
 * (these are what `history.items` carries). `role: "system"` items are injected context:
 * resolved files, notifications, summaries.
 */
export const MessageItemSchema = z.object({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system']),
  content: z.array(ContentPartSchema),
  /**
   * On user messages: the typed segments the client sent (wire form, unknown kinds as sent), so
   * any client can rebuild `[Clipboard …]` chips and `@path`/`#slug`/`/slug` refs from history.
   * Providers ignore it; a v1 client reads items as plain JSON and ignores it too.
   */
  segments: z.array(z.unknown()).optional(),
});
export const ToolCallItemSchema = z.object({
  type: z.literal('tool_call'),
  call_id: z.string(),
  name: z.string(),
  /** JSON text of the arguments. */
  arguments: z.string(),
});
export const ToolResultItemSchema = z.object({
  type: z.literal('tool_result'),
  call_id: z.string(),
  summary: z.string(),
  content: z.string().optional(),
  is_error: z.boolean().optional(),
});
export const HistoryItemSchema = z.discriminatedUnion('type', [
  MessageItemSchema,
  ToolCallItemSchema,
  ToolResultItemSchema,
]);

export type MessageItem = z.infer<typeof MessageItemSchema>;
export type ToolCallItem = z.infer<typeof ToolCallItemSchema>;
export type ToolResultItem = z.infer<typeof ToolResultItemSchema>;
export type HistoryItem = z.infer<typeof HistoryItemSchema>;

export function messageItem(role: MessageItem['role'], text: string): MessageItem {
  return { type: 'message', role, content: [{ type: 'text', text }] };
}

/** The concatenated text of a message item. */
export function itemText(item: MessageItem): string {
  return item.content.map((p) => p.text).join('');
}
