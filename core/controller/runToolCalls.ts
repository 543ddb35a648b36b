import type { EventBus } from '../bus/EventBus.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../config/YoiConfigSchema.js';
import type { Hooks } from '../hooks/createHooks.js';
import type { ClientInfo, PodInfo, ToolCallInfo } from '../hooks/HookTypes.js';
import type { ToolResultItem } from '../history/HistoryItem.js';
import type { Tool, ToolOutput, ToolProgress } from '../tools/Tool.js';
import type { ModelToolCall } from './streamTurn.js';
import { callWithDeadline } from './callWithDeadline.js';
import { truncateOutput } from './truncateOutput.js';

export interface ToolRunOptions {
  hooks: Hooks;
  bus: EventBus;
  tools: ReadonlyMap<string, Tool>;
  pod: PodInfo;
  signal: AbortSignal;
  /** The client whose run makes the calls. */
  client?: ClientInfo;
  outputLimitBytes: number;
  /** Longest a tool call may take; default the config's `limits.toolTimeoutMs`. */
  toolTimeoutMs?: number;
  alert: (message: string) => void;
}

/**
 * Runs one reply's tool calls in parallel and returns their results in call order. A failing,
 * unknown or refused tool never aborts the run: it gives an `is_error` result the model sees.
 * Calls still running when the run is paused or cancelled give no result (`undefined`): they
 * stay open for `resume` (pause) or are closed with a synthetic result (cancel). Every call is
 * bounded by `limits.toolTimeoutMs`: past it the tool's signal aborts and the call gets an
 * `is_error` result saying so at once, also from a tool that ignores its signal.
 */
export async function runToolCalls(
  calls: readonly ModelToolCall[],
  opts: ToolRunOptions,
): Promise<(ToolResultItem | undefined)[]> {
  const results = await Promise.all(calls.map((call) => runOne(call, opts)));
  if (!opts.signal.aborted) {
    for (const r of results) {
      if (r)
        opts.bus.broadcast({
          event: 'tool_result',
          data: { id: r.call_id, summary: r.summary, output: r.content, is_error: r.is_error ?? false },
        });
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

  const info: ToolCallInfo = {
    ...opts.pod,
    id: call.id,
    name: call.name,
    arguments: args,
    signal,
    ...(opts.client ? { client: opts.client } : {}),
  };
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

  const timeoutMs = opts.toolTimeoutMs ?? opts.pod.services.config?.limits.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  let output: ToolOutput;
  try {
    const progress = (p: ToolProgress) => {
      if (!signal.aborted) opts.bus.broadcast({ event: 'tool_progress', data: { id: call.id, ...p } });
    };
    const outcome = await callWithDeadline(
      (callSignal) => tool.execute(parsed.data, { ...opts.pod, signal: callSignal, callId: call.id, progress }),
      { signal, timeoutMs },
    );
    if (outcome.timedOut) {
      output = {
        summary: `Timed out: ${call.name} did not finish within ${duration(timeoutMs)} (limits.toolTimeoutMs) and was stopped`,
        is_error: true,
      };
      opts.alert(`tool \`${call.name}\` timed out after ${duration(timeoutMs)} (limits.toolTimeoutMs)`);
    } else output = outcome.value;
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
      opts.alert(
        `tool \`${call.name}\` output truncated from ${cut.before} to ${cut.after} bytes (limit ${opts.outputLimitBytes})`,
      );
    }
  }
  return result(output);
}

/** `300 s`, `250 ms`. */
function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
