import type { LanguageModelV3Message, LanguageModelV3ToolResultPart, SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { HistoryItem } from '../../../core/api.js';

/** Provider-keyed options the SDK passes through (`{ anthropic: { cacheControl: ... } }`). */
export type ProviderOptions = SharedV3ProviderOptions;

/** One message of a language-model prompt (what a provider package's `doStream` takes). */
export type ModelMessage = LanguageModelV3Message;
type AssistantModelMessage = Extract<ModelMessage, { role: 'assistant' }>;
type ToolModelMessage = Extract<ModelMessage, { role: 'tool' }>;

export interface ToModelMessagesOptions {
  /**
   * Where `role: "system"` items in the conversation go (resolved files, notifications):
   * `system` keeps them as system messages (OpenAI chat takes them anywhere); `user` sends
   * them as user text, for APIs with no system role mid-conversation (Anthropic), as yoi did.
   */
  systemItemsAs: 'system' | 'user';
  /**
   * Provider options for the prompt-cache breakpoints: put on the message before the newest
   * user message (the stable prefix across runs) and on the last message (the prefix the next
   * request of a tool loop starts with). Omitted: no breakpoints.
   */
  cacheBreakpoint?: ProviderOptions;
}

/** What a call interrupted without a result tells the model (the SDK refuses open calls). */
export const NO_RESULT = '[No result: the call was interrupted]';

/**
 * Maps the pod's history to the messages of a language-model prompt: consecutive assistant text and tool calls
 * form one assistant message, consecutive tool results one tool message (`is_error` becomes an
 * `error-text` output, which Anthropic sends as `is_error: true`). A result's text is
 * `summary\ncontent`, or the summary alone. A result without its call is dropped and a call
 * without a result gets a synthetic error result, so a damaged history never fails a request.
 */
export function toModelMessages(items: readonly HistoryItem[], opts: ToModelMessagesOptions): ModelMessage[] {
  const names = new Map<string, string>();
  const answered = new Set<string>();
  for (const item of items) {
    if (item.type === 'tool_call') names.set(item.call_id, item.name);
    else if (item.type === 'tool_result') answered.add(item.call_id);
  }

  const out: ModelMessage[] = [];
  let open: { id: string; name: string }[] = []; // calls that will never get a result
  let newestUser = -1;
  const last = () => out[out.length - 1];
  const pushResult = (part: LanguageModelV3ToolResultPart) => {
    const tail = last();
    if (tail?.role === 'tool') (tail as ToolModelMessage).content.push(part);
    else out.push({ role: 'tool', content: [part] });
  };
  const closeOpen = () => {
    for (const call of open)
      pushResult({
        type: 'tool-result',
        toolCallId: call.id,
        toolName: call.name,
        output: { type: 'error-text', value: NO_RESULT },
      });
    open = [];
  };
  const assistant = (): AssistantModelMessage => {
    const tail = last();
    if (tail?.role === 'assistant') return tail;
    closeOpen();
    const message: AssistantModelMessage = { role: 'assistant', content: [] };
    out.push(message);
    return message;
  };

  for (const item of items) {
    switch (item.type) {
      case 'message': {
        const text = item.content.map((p) => p.text).join('');
        if (text === '') break; // APIs refuse empty text blocks
        if (item.role === 'assistant') {
          assistant().content.push({ type: 'text', text });
          break;
        }
        closeOpen();
        if (item.role === 'system' && opts.systemItemsAs === 'system') out.push({ role: 'system', content: text });
        else {
          if (item.role === 'user') newestUser = out.length;
          out.push({ role: 'user', content: [{ type: 'text', text }] });
        }
        break;
      }
      case 'tool_call': {
        const message = assistant();
        message.content.push({
          type: 'tool-call',
          toolCallId: item.call_id,
          toolName: item.name,
          input: parseArguments(item.arguments),
        });
        if (!answered.has(item.call_id)) open.push({ id: item.call_id, name: item.name });
        break;
      }
      case 'tool_result': {
        const toolName = names.get(item.call_id);
        if (toolName === undefined) break;
        const value =
          item.content !== undefined && item.content !== '' ? `${item.summary}\n${item.content}` : item.summary;
        pushResult({
          type: 'tool-result',
          toolCallId: item.call_id,
          toolName,
          output: item.is_error ? { type: 'error-text', value } : { type: 'text', value },
        });
        break;
      }
    }
  }
  closeOpen();

  if (opts.cacheBreakpoint) {
    const marks = new Set([newestUser - 1, out.length - 1].filter((i) => i >= 0));
    for (const i of marks) out[i] = { ...out[i], providerOptions: opts.cacheBreakpoint } as ModelMessage;
  }
  return out;
}

/** Tool-call arguments as the model sent them (history keeps JSON text); `{}` if unreadable. */
function parseArguments(args: string): unknown {
  try {
    const value = JSON.parse(args);
    return value !== null && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}
