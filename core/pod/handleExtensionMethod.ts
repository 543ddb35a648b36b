import { PluginError, isPluginError } from '../errors/PluginError.js';
import type { ClientInfo, PodInfo } from '../hooks/HookTypes.js';
import { MethodError, type ProtocolExtensions } from '../plugin/ProtocolExtensions.js';
import { ExtensionEvent } from '../protocol/ExtensionEvent.js';
import { formatIssues, parseLine, type Event } from '../protocol/index.js';
import type { EventBus } from '../bus/EventBus.js';
import type { Connection } from '../server/Connection.js';

/**
 * Dispatches a line naming a plugin's method (`api.method`), or returns undefined when the line
 * names none (the server then rejects it as it rejects any bad line). Extension methods need v2.
 * The handler's reply goes to the requester: `ack`, its reply event, or `error` (a MethodError
 * keeps its code; any other failure is `internal`, naming the plugin).
 */
export function handleExtensionMethod(
  extensions: ProtocolExtensions,
  bus: EventBus,
  info: PodInfo,
  conn: Connection,
  line: string,
  client: ClientInfo,
): Promise<void> | undefined {
  if (extensions.methods.size === 0) return undefined;
  const parsed = parseLine(line);
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value))
    return undefined;
  const {
    method,
    params,
    request_id: rid,
  } = parsed.value as { method?: unknown; params?: unknown; request_id?: unknown };
  const entry = typeof method === 'string' ? extensions.methods.get(method) : undefined;
  if (!entry) return undefined;
  const requestId = typeof rid === 'string' ? rid : undefined;
  const reply = (event: Event | ExtensionEvent) =>
    bus.reply(
      conn,
      event instanceof ExtensionEvent
        ? event.withRequestId(requestId)
        : ({ ...event, ...(requestId ? { request_id: requestId } : {}) } as Event),
    );
  const fail = (code: 'invalid_request' | 'internal' | string, message: string) =>
    reply({ event: 'error', data: { code, message } } as Event);
  return (async () => {
    if (conn.version !== 2)
      return fail('invalid_request', `method \`${entry.def.name}\` needs protocol version 2: send hello first`);
    let input: unknown;
    if (entry.def.params === null) {
      if (params !== undefined && params !== null)
        return fail('invalid_request', `\`${entry.def.name}\` takes no params`);
    } else {
      const checked = entry.def.params.safeParse(params);
      if (!checked.success)
        return fail('invalid_request', `invalid params for \`${entry.def.name}\`: ${formatIssues(checked.error)}`);
      input = checked.data;
    }
    try {
      const result = await entry.def.handle(input as never, { ...info, client, ...(requestId ? { requestId } : {}) });
      if (result instanceof ExtensionEvent) reply(result);
      else reply({ event: 'ack', data: { method: entry.def.name } });
    } catch (e) {
      if (e instanceof MethodError) return fail(e.code, e.message);
      const error = isPluginError(e) ? e : new PluginError(entry.plugin, `method(${entry.def.name})`, e);
      fail('internal', error.message);
    }
  })();
}
