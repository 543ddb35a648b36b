import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { AbortedError } from '../provider/providerErrors.js';
import { HistoryItemSchema } from '../history/HistoryItem.js';
import type { CompactContext, CompactReason, CompactRequest, PodInfo } from '../hooks/HookTypes.js';
import type { PodRuntime } from '../pod/PodRuntime.js';
import type { ContextTracker } from '../tokens/ContextTracker.js';
import { carryTokenCounts, countItemsTokens, estimateItemsTokens } from '../tokens/estimateTokens.js';
import { completeText } from './completeText.js';
import { writeCompactedSession } from './writeCompactedSession.js';

/** How many recently touched files a compaction passes to the strategy. */
export const RECENT_FILES = 5;

const ItemsSchema = z.array(HistoryItemSchema);

export interface RunCompactionOptions {
  reason: CompactReason;
  signal: AbortSignal;
  tokens: ContextTracker;
}

/**
 * One compaction attempt: asks the strategy (`beforeCompact` → `compact`) for the new history,
 * then rotates the session: a new session file whose `session_start` records
 * `compacted_from` and the new history, the pod's log and history switched to it. Throws, with
 * everything unchanged, when the strategy fails, returns nothing or returns invalid items, or
 * when `signal` aborts before the switch. The old log is closed as it was, never modified.
 */
export async function runCompaction(rt: PodRuntime, opts: RunCompactionOptions): Promise<{ newSessionId: string }> {
  const { hooks, provider, info } = rt;
  const { signal } = opts;
  const items = [...rt.history];
  const ctx: CompactContext = {
    ...info,
    signal,
    provider,
    system: rt.systemPrompt,
    countTokens: (list) => estimateItemsTokens(list),
    complete: (request) => completeText(provider, { ...request, tools: [], signal }),
  };
  let request: CompactRequest = {
    items,
    retainedTokens: rt.config.compaction.retainedTokens,
    // Counted here without blocking the loop; the strategy's synchronous countTokens then finds each item cached.
    totalTokens: await countItemsTokens(items, '', signal),
    reason: opts.reason,
    recentFiles: recentFiles(info.services),
  };
  request = await untilAborted(() => hooks.beforeCompact.promise(request, ctx), signal);
  const result = await untilAborted(() => hooks.compact.promise(request, ctx), signal);
  if (!result) throw new Error('no compaction strategy answered (no plugin taps `compact`)');
  const parsed = ItemsSchema.safeParse(result.items);
  if (!parsed.success)
    throw new Error(
      `the compaction strategy returned invalid history items: ${parsed.error.issues[0]?.message ?? 'unknown'}`,
    );
  if (signal.aborted) throw new AbortedError('aborted');
  carryTokenCounts(result.items, parsed.data); // the kept tail is not tokenized again

  // From here to the end nothing awaits: the switch cannot be interleaved with a pause.
  const old = rt.session;
  old.flush(); // the old log gets its last entries before the switch
  // Its unwritten entries would be lost with it: no switch until the disk takes them.
  if (old.writeFailure !== undefined) throw new Error(old.writeFailure);
  const at = Date.now();
  const log = writeCompactedSession(rt.config.sessions.dir, {
    type: 'session_start',
    v: 1,
    ts: at,
    session_id: uuidv7(),
    pod_name: info.podName,
    cwd: rt.config.cwd,
    provider: provider.name,
    model: provider.model,
    system_prompt: rt.systemPrompt,
    compacted_from: { session_id: old.sessionId, at, ...(old.headHash ? { at_hash: old.headHash } : {}) },
    history: parsed.data,
    ...withReports(rt),
  });
  log.onWriteState = old.onWriteState;
  log.onDetached = old.onDetached;
  rt.session = log;
  old.close();
  rt.history.length = 0;
  for (const item of parsed.data) rt.history.push(item);
  opts.tokens.reset();
  return { newSessionId: log.sessionId };
}

/** The applied reports go along in the new session's first line (atomic with the switch). */
function withReports(rt: PodRuntime): { reports?: NonNullable<ReturnType<PodRuntime['reports']['snapshot']>> } {
  const reports = rt.reports.snapshot();
  return reports ? { reports } : {};
}

/**
 * Starts a hook's work unless `signal` has aborted, then settles with it, or rejects as soon as
 * `signal` aborts (a strategy may ignore it). A compaction stopped between two hooks does not
 * start the next, and whatever a started one rejects with later is handled here: an unhandled
 * rejection would end the pod.
 */
function untilAborted<T>(start: () => Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortedError('aborted'));
  const work = start();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError('aborted'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** `services.files.recent(5)`: the files tools touched last, when the pod tracks them. */
function recentFiles(services: PodInfo['services']): string[] {
  try {
    return services.files?.recent(RECENT_FILES) ?? [];
  } catch {
    return [];
  }
}
