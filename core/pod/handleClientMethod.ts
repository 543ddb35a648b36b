import type { Connection } from '../server/Connection.js';
import { kindOfSigil, type Method } from '../protocol/index.js';
import type { Pod } from './Pod.js';
import { clientOf, rid } from './clientOf.js';

const V2_ONLY = new Set(['list_completions', 'compact']);
const MAX_COMPLETIONS = 200;

/**
 * Answers one client method. Replies (`welcome`, `history`, `completions`, `ack`, an `error`
 * rejecting the request) go to the requesting connection only and echo its `request_id`.
 */
export async function handleClientMethod(pod: Pod, conn: Connection, method: Method): Promise<void> {
  const { bus } = pod;
  const r = rid(method);
  if (V2_ONLY.has(method.method) && conn.version !== 2) {
    bus.reply(conn, {
      event: 'error',
      data: {
        code: 'invalid_request',
        message: `method \`${method.method}\` needs protocol version 2: send hello first`,
      },
      ...r,
    });
    return;
  }
  switch (method.method) {
    case 'hello':
      // A client asking for v1 stays on v1, where nothing answers hello.
      if (method.params.protocol_version >= 2) {
        conn.version = 2;
        conn.client = method.params.client;
        conn.credential = method.params.auth;
        bus.reply(conn, { event: 'welcome', data: pod.welcome(conn), ...r });
        // Plugins send what this client missed (pending asks...) after its welcome.
        void pod.host.hooks.clientConnected.promise(clientOf(conn), pod.info).catch(() => undefined);
      }
      return;
    case 'get_history':
      bus.reply(conn, { event: 'history', data: { items: pod.controller.history, greeting: pod.greeting }, ...r });
      return;
    case 'list_completions': {
      // A completion kind may also be named by its sigil.
      const kind = kindOfSigil(method.params.kind) ?? method.params.kind;
      const prefix = method.params.prefix;
      const hook = pod.host.hooks.completeSegment.get(kind);
      let items: string[] = [];
      if (hook && hook.taps.length > 0) {
        const signal = AbortSignal.timeout(5000);
        items = await hook.promise([], { ...pod.info, prefix, signal, limit: MAX_COMPLETIONS }).catch((e: Error) => {
          pod.alert('warn', e.message);
          return [];
        });
      }
      bus.reply(conn, {
        event: 'completions',
        data: { kind, prefix, items: [...new Set(items)].slice(0, MAX_COMPLETIONS) },
        ...r,
      });
      return;
    }
    case 'compact': {
      // Answered synchronously: the ack goes out before the compaction's first event.
      const reply = pod.compact();
      if (reply.ok) bus.reply(conn, { event: 'ack', data: { method: 'compact' }, ...r });
      else bus.reply(conn, { event: 'error', data: { code: reply.code, message: reply.message }, ...r });
      return;
    }
    default: {
      // Input the log cannot record is refused, so whatever was acknowledged is on disk.
      const failure =
        method.method === 'run' || method.method === 'notify' ? pod.runtime.session.writeFailure : undefined;
      if (failure !== undefined) {
        bus.reply(conn, {
          event: 'error',
          data: { code: 'internal', message: `${failure}; the ${method.method} was refused` },
          ...r,
        });
        return;
      }
      // Not `await` on a plain value: that would let the run's first events overtake the ack.
      const pending = pod.controller.handle(method, clientOf(conn));
      const reply = pending instanceof Promise ? await pending : pending;
      if (!reply.ok) bus.reply(conn, { event: 'error', data: { code: reply.code, message: reply.message }, ...r });
      else if (conn.version === 2) {
        bus.reply(conn, { event: 'ack', data: { method: method.method }, ...r });
        conn.sendNow();
      }
    }
  }
}
