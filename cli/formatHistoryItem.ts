/** One history item as a readable block for `yoi history`. */
export function formatHistoryItem(item: unknown): string {
  const i = item as {
    type?: string;
    role?: string;
    content?: unknown;
    name?: string;
    arguments?: string;
    summary?: string;
    is_error?: boolean;
  };
  switch (i.type) {
    case 'message': {
      const text = Array.isArray(i.content) ? i.content.map((p: { text?: string }) => p.text ?? '').join('') : '';
      return `${i.role}: ${text}`;
    }
    case 'tool_call':
      return `tool call ${i.name} ${i.arguments ?? ''}`;
    case 'tool_result':
      return `tool result${i.is_error ? ' (error)' : ''}: ${i.summary ?? ''}`;
    default:
      return JSON.stringify(item);
  }
}
