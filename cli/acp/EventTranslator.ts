import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Event } from '../../core/protocol/index.js';
import { segmentBlocks } from './promptSegments.js';
import { parseArgs, resultContent, toolDiff, toolKind, toolLocations, toolTitle } from './toolCallView.js';

/** Tool calls remembered between their start and their result (a misbehaving pod cannot grow this). */
const MAX_OPEN_CALLS = 1024;

interface OpenCall {
  name: string;
  title: string;
  args?: Record<string, unknown>;
}

/**
 * Turns one pod's events into ACP `session/update`s: text deltas into agent message chunks, the
 * tool call lifecycle into `tool_call` / `tool_call_update`, live alerts and notifications into
 * agent messages, other clients' inputs into user message chunks. Replies (acks, history,
 * completions) and the alerts a pod replays to every new connection (they carry no `seq`) are
 * not updates.
 */
export class EventTranslator {
  private readonly calls = new Map<string, OpenCall>();

  constructor(private readonly cwd: string) {}

  /** The tool call a permission ask is most likely about: the newest open call of that tool. */
  openCallOf(tool: string, args: unknown): { id: string; title: string } | undefined {
    const wanted = JSON.stringify(args ?? {});
    let fallback: { id: string; title: string } | undefined;
    for (const [id, call] of this.calls) {
      if (call.name !== tool) continue;
      if (call.args !== undefined && JSON.stringify(call.args) === wanted) return { id, title: call.title };
      fallback = { id, title: call.title };
    }
    return fallback;
  }

  translate(e: Event): SessionUpdate[] {
    switch (e.event) {
      case 'user_message': {
        const content = segmentBlocks(
          e.data.segments.map((s) =>
            typeof (s as { toJSON?: unknown }).toJSON === 'function' ? (s as { toJSON(): unknown }).toJSON() : s,
          ),
          this.cwd,
        );
        return content.map((block) => ({ sessionUpdate: 'user_message_chunk', content: block }));
      }
      case 'text_delta':
        return e.data.text === ''
          ? []
          : [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: e.data.text } }];
      case 'tool_call_start': {
        this.remember(e.data.id, { name: e.data.name, title: e.data.name });
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: e.data.id,
            title: e.data.name,
            kind: toolKind(e.data.name),
            status: 'pending',
          },
        ];
      }
      case 'tool_call_done': {
        const args = parseArgs(e.data.arguments);
        const title = toolTitle(e.data.name, args);
        const known = this.calls.has(e.data.id);
        this.remember(e.data.id, { name: e.data.name, title, args });
        const fields = {
          toolCallId: e.data.id,
          title,
          kind: toolKind(e.data.name),
          status: 'in_progress' as const,
          rawInput: args,
          locations: toolLocations(e.data.name, args, this.cwd),
          content: toolDiff(e.data.name, args, this.cwd),
        };
        return [known ? { sessionUpdate: 'tool_call_update', ...fields } : { sessionUpdate: 'tool_call', ...fields }];
      }
      case 'tool_result': {
        const known = this.calls.delete(e.data.id);
        const update: SessionUpdate = {
          sessionUpdate: 'tool_call_update',
          toolCallId: e.data.id,
          status: e.data.is_error ? 'failed' : 'completed',
          content: resultContent(e.data.summary, e.data.output),
          rawOutput: { summary: e.data.summary, output: e.data.output ?? null, is_error: e.data.is_error },
        };
        // A result for a call this client never saw start (it connected mid-call) still shows.
        return known
          ? [update]
          : [
              {
                sessionUpdate: 'tool_call',
                toolCallId: e.data.id,
                title: 'tool call',
                kind: 'other',
                status: 'pending',
              },
              update,
            ];
      }
      case 'alert':
        if (e.seq === undefined) return []; // replayed to every connection: old news
        return [agentText(`\n\n> ⚠ ${e.data.level} (${e.data.source}): ${e.data.message}\n\n`)];
      case 'notification':
        return [
          agentText(`\n\n> ◆ ${e.data.source === 'pod_event' ? 'child pod' : 'notification'}: ${e.data.message}\n\n`),
        ];
      case 'error':
        // A run's terminal error is the prompt's answer; one that ends another client's run is shown.
        return e.request_id === undefined ? [agentText(`\n\n> ✖ ${e.data.code}: ${e.data.message}\n\n`)] : [];
      default:
        return [];
    }
  }

  /** MCP progress (`tool_progress{id, progress, total?, message?}`), a protocol or a plugin event. */
  progress(data: unknown): SessionUpdate[] {
    if (data === null || typeof data !== 'object') return [];
    const { id, progress, total, message } = data as Record<string, unknown>;
    if (typeof id !== 'string' || typeof progress !== 'number') return [];
    const call = this.calls.get(id);
    if (!call) return [];
    const of = typeof total === 'number' ? `${progress}/${total}` : `${progress}`;
    return [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        title: `${call.title} (${of}${typeof message === 'string' && message !== '' ? `: ${message}` : ''})`,
      },
    ];
  }

  private remember(id: string, call: OpenCall): void {
    this.calls.delete(id);
    this.calls.set(id, call);
    if (this.calls.size > MAX_OPEN_CALLS) this.calls.delete(this.calls.keys().next().value!);
  }
}

export function agentText(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}
