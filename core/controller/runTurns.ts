import type { Compactor } from '../compaction/Compactor.js';
import { messageItem, type HistoryItem } from '../history/HistoryItem.js';
import type { PodRuntime } from '../pod/PodRuntime.js';
import type { LlmRequest } from '../provider/Provider.js';
import { AbortedError } from '../provider/providerErrors.js';
import type { RunResult } from '../protocol/index.js';
import { countItemsTokens, countTextTokens, loadTokenizer } from '../tokens/estimateTokens.js';
import type { ActiveRun } from './PodController.js';
import { runToolCalls } from './runToolCalls.js';
import { streamTurn } from './streamTurn.js';
import type { ToolSet } from './ToolSet.js';

export interface TurnLoopParts {
  compactor: Compactor;
  tools: ToolSet;
  nextTurn: () => number;
  drainNotes: () => void;
  commit: (items: HistoryItem[], source: 'assistant' | 'tool') => void;
}

/**
 * The tool loop of one run: compact if due, commit queued notifications, one LLM request, its
 * tool calls, again — until a reply without tool calls (`finished`) or `maxTurns` rounds
 * (`limit_reached`). Throws `AbortedError` when the run is paused or cancelled.
 */
export async function runTurns(rt: PodRuntime, run: ActiveRun, parts: TurnLoopParts): Promise<RunResult> {
  const { hooks, bus, provider, info } = rt;
  const { signal } = run.abort;
  for (let rounds = 0; ;) {
    await parts.compactor.beforeRequest(signal);
    parts.drainNotes();
    const sent = rt.history.length;
    const turn = parts.nextTurn();
    const system = [rt.systemPrompt, ...run.instructions].join('\n\n');
    let request: LlmRequest = {
      system,
      instructions: run.instructions,
      items: [...rt.history],
      tools: parts.tools.refresh(),
      signal,
    };
    request = await hooks.beforeTurn.promise(request, {
      ...info,
      turn,
      signal,
      ...(run.client ? { client: run.client } : {}),
    });
    bus.broadcast({ event: 'turn_start', data: { turn } });
    const out = await streamTurn(provider, request, bus);
    parts.compactor.onUsage(out.usage, sent);
    // A provider without usage: estimate now (in pieces that yield: any text may be huge), and
    // load the tokenizer so later ones are exact. Not stopped by a pause: the reply is complete
    // and goes into the history (each count is bounded, see countInPieces).
    if (out.usage.input_tokens === undefined) void loadTokenizer().catch(() => undefined);
    const usage = {
      input_tokens: out.usage.input_tokens ?? (await countItemsTokens(request.items, request.system)),
      output_tokens: out.usage.output_tokens ?? (await countTextTokens(out.text)),
    };
    bus.broadcast({ event: 'usage', data: usage });
    rt.session.append({ type: 'usage', ts: Date.now(), turn, ...usage });
    bus.broadcast({ event: 'turn_end', data: { turn, result: 'finished' } });
    const items: HistoryItem[] = [];
    if (out.text !== '') items.push(messageItem('assistant', out.text));
    for (const c of out.toolCalls)
      items.push({ type: 'tool_call', call_id: c.id, name: c.name, arguments: c.arguments });
    parts.commit(items, 'assistant');
    await hooks.afterTurn.promise({ turn, text: out.text, toolCalls: out.toolCalls, usage }, info);
    if (out.toolCalls.length === 0) return 'finished';
    const results = await runToolCalls(out.toolCalls, parts.tools.runOptions(rt, run));
    parts.commit(
      results.filter((r) => r !== undefined),
      'tool',
    );
    if (signal.aborted) throw new AbortedError('aborted');
    if (++rounds >= rt.config.maxTurns) return 'limit_reached';
  }
}
