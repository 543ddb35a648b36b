import type { EventBus } from '../bus/EventBus.js';
import type { Hooks } from '../hooks/createHooks.js';
import type { PodInfo, ToolCallInfo } from '../hooks/HookTypes.js';
import type { ToolResultItem } from '../history/HistoryItem.js';
import type { Tool, ToolOutput, ToolProgress } from '../tools/Tool.js';
import type { ModelToolCall } from './streamTurn.js';
import { truncateOutput } from './truncateOutput.js';

export interface ToolRunOptions {
  hooks: Hooks;
  bus: EventBus;
  tools: ReadonlyMap<string, Tool>;
  pod: PodInfo;
  signal: AbortSignal;
  outputLimitBytes: number;
  alert: (message: string) => void;
}

/**
 * Runs one reply's tool calls in parallel and returns their results in call order. A failing,
 * unknown or refused tool never aborts the run: it gives an `is_error` result the model sees.
 * Calls still running when the run is paused or cancelled give no result (`undefined`): they
 * stay open for `resume` (pause) or are closed with a synthetic result (cancel).
 */
export async function runToolCalls(calls: readonly ModelToolCall[], opts: ToolRunOptions): Promise<(ToolResultItem | undefined)[]> {
  const results = await Promise.all(calls.map((call) => runOne(call, opts)));
  if (!opts.signal.aborted) {
    for (const r of results) {
      if (r) opts.bus.broadcast({ event: 'tool_result', data: { id: r.call_id, summary: r.summary, output: r.content, is_error: r.is_error ?? false } });
    }
  }
  return results;
}

async function runOne(call: ModelToolCall, opts: ToolRunOptions): Promise<ToolResultItem | undefined> {
  const { signal } = opts;
  const result = (out: ToolOutput): ToolResultItem => ({
    type: 'tool_result',
    call_id: call.id,
    summary: out.summary,
    ...(out.content !== undefined ? { content: out.content } : {}),
    is_error: out.is_error === true,
  });

  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return result({ summary: `Invalid argument: the arguments of ${call.name} are not valid JSON`, is_error: true });
  }
  const tool = opts.tools.get(call.name);
  if (!tool) return result({ summary: `Tool '${call.name}' not found`, is_error: true });

  const info: ToolCallInfo = { ...opts.pod, id: call.id, name: call.name, arguments: args, signal };
  try {
    const decision = await opts.hooks.beforeToolCall.promise(info);
    if (decision?.action === 'skip') return result({ summary: `Skipped: ${decision.reason}` });
    if (decision?.action === 'refuse') return result({ summary: `Refused: ${decision.reason}`, is_error: true });
  } catch (e) {
    return result({ summary: `Refused: ${(e as Error).message}`, is_error: true });
  }

  const parsed = tool.input.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return result({ summary: `Invalid argument: ${where}${issue?.message ?? 'bad input'}`, is_error: true });
  }

  let output: ToolOutput;
  try {
    const progress = (p: ToolProgress) => {
      if (!signal.aborted) opts.bus.broadcast({ event: 'tool_progress', data: { id: call.id, ...p } });
    };
    output = await tool.execute(parsed.data, { ...opts.pod, signal, callId: call.id, progress });
  } catch (e) {
    if (signal.aborted) return undefined;
    output = { summary: `Tool execution failed: ${(e as Error).message ?? String(e)}`, is_error: true };
  }
  if (signal.aborted) return undefined;
  try {
    output = await opts.hooks.afterToolCall.promise(output, info);
  } catch (e) {
    opts.alert((e as Error).message);
  }

  if (output.content !== undefined) {
    const cut = truncateOutput(output.content, opts.outputLimitBytes);
    if (cut.truncated) {
      output = { ...output, content: cut.text };
      opts.alert(`tool \`${call.name}\` output truncated from ${cut.before} to ${cut.after} bytes (limit ${opts.outputLimitBytes})`);
    }
  }
  return result(output);
}
