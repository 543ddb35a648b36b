import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { agentText } from './EventTranslator.js';
import { segmentBlocks } from './promptSegments.js';
import { parseArgs, resultContent, toolDiff, toolKind, toolLocations, toolTitle } from './toolCallView.js';

const NOTIFICATION = /^\[Notification\]\n([\s\S]*?)\n\nThis is a notification, not a blocking request\./;

/**
 * A pod's history (`history.items`) as the updates `session/load` replays: user messages (from
 * their typed segments when the pod kept them), the agent's replies, every tool call with its
 * result, and notifications as they were shown live. Other system items — the text a reference
 * resolved to, a compaction's summary — are the model's context, not the conversation.
 */
export function historyUpdates(items: readonly unknown[], cwd: string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const names = new Map<string, string>();
  for (const raw of items) {
    if (raw === null || typeof raw !== 'object') continue;
    const item = raw as Record<string, unknown>;
    if (item.type === 'message') {
      const text = Array.isArray(item.content)
        ? item.content
            .map((p) => (typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
            .join('')
        : '';
      if (item.role === 'user') {
        const blocks = Array.isArray(item.segments) ? segmentBlocks(item.segments, cwd) : [];
        for (const content of blocks.length > 0 ? blocks : [{ type: 'text' as const, text }])
          updates.push({ sessionUpdate: 'user_message_chunk', content });
      } else if (item.role === 'assistant') {
        if (text !== '') updates.push(agentText(text));
      } else {
        const note = NOTIFICATION.exec(text);
        if (note) updates.push(agentText(`\n\n> ◆ notification: ${note[1]}\n\n`));
      }
    } else if (item.type === 'tool_call' && typeof item.call_id === 'string' && typeof item.name === 'string') {
      const args = parseArgs(typeof item.arguments === 'string' ? item.arguments : '{}');
      names.set(item.call_id, item.name);
      updates.push({
        sessionUpdate: 'tool_call',
        toolCallId: item.call_id,
        title: toolTitle(item.name, args),
        kind: toolKind(item.name),
        status: 'pending',
        rawInput: args,
        locations: toolLocations(item.name, args, cwd),
        content: toolDiff(item.name, args, cwd),
      });
    } else if (item.type === 'tool_result' && typeof item.call_id === 'string') {
      const summary = typeof item.summary === 'string' ? item.summary : '';
      const output = typeof item.content === 'string' ? item.content : undefined;
      if (!names.has(item.call_id)) continue; // a result whose call was compacted away
      updates.push({
        sessionUpdate: 'tool_call_update',
        toolCallId: item.call_id,
        status: item.is_error === true ? 'failed' : 'completed',
        content: resultContent(summary, output),
      });
    }
  }
  return updates;
}
