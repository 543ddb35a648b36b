import type { ClientInfo, PodEventContext } from '../hooks/HookTypes.js';
import type { PodRuntime } from '../pod/PodRuntime.js';
import { oneLineError, podEventSource, type PodEvent } from '../protocol/index.js';
import type { Reply } from './PodController.js';
import { renderPodEvent } from './renderPodEvent.js';

/** Whom a report came from when the method did not say (in-process calls). */
const V1_CLIENT: ClientInfo = { id: 0, protocol: 1 };

/**
 * A child's report: checked, then applied once per request id (see ReportLedger) — a retry of
 * one applied, before a restart too, is only acknowledged. Lines without an id (v1 children)
 * are applied each time. `notify` hands the model the report's note.
 */
export async function handlePodEvent(
  rt: PodRuntime,
  event: PodEvent,
  requestId: string | undefined,
  client: ClientInfo | undefined,
  notify: (text: string) => void,
): Promise<Reply> {
  const ctx: PodEventContext = {
    ...rt.info,
    signal: AbortSignal.timeout(30_000),
    client: client ?? V1_CLIENT,
    ...(requestId !== undefined ? { requestId } : {}),
  };
  let refusal: string | undefined;
  try {
    refusal = await rt.hooks.checkPodEvent.promise(event, ctx);
  } catch (e) {
    // Not applied, and `internal`: the child tries again (a check that fails now may not later).
    const message = oneLineError(`the report could not be checked: ${(e as Error).message}`);
    rt.alert('error', message);
    return { ok: false, code: 'internal', message };
  }
  if (refusal) return { ok: false, code: 'invalid_request', message: oneLineError(refusal) }; // a plugin's refusal stays one line
  if (requestId === undefined) await applyPodEvent(rt, event, ctx, notify);
  else await rt.reports.once(podEventSource(event), requestId, () => applyPodEvent(rt, event, ctx, notify));
  return { ok: true };
}

async function applyPodEvent(
  rt: PodRuntime,
  event: PodEvent,
  ctx: PodEventContext,
  notify: (text: string) => void,
): Promise<void> {
  const { hooks } = rt;
  const kind = event.kind === 'unknown' ? event.rawKind : event.kind;
  const side = hooks.podEvent.get(kind);
  if (side && side.taps.length > 0) await side.promise(event, ctx);
  const text = renderPodEvent(hooks, event, (m) => rt.alert('warn', m));
  if (ctx.requestId !== undefined) {
    // One line records that the report was applied and the note it gives the model: killed
    // before it, the retried report is applied again (side effects keyed by its id); after it,
    // never — and the note is restored with the session if the model had not read it yet.
    const from = podEventSource(event);
    rt.session.append({
      type: 'pod_event',
      ts: Date.now(),
      from,
      request_id: ctx.requestId,
      ...(text !== null ? { note: text } : {}),
    });
    rt.reports.record(from, ctx.requestId, text ?? undefined);
  }
  if (text !== null) notify(text);
}
