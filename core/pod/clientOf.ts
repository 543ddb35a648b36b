import type { ClientInfo } from '../hooks/HookTypes.js';
import type { Method } from '../protocol/index.js';
import type { Connection } from '../server/Connection.js';

/** How hooks see a connection. */
export function clientOf(conn: Connection): ClientInfo {
  return {
    id: conn.id,
    protocol: conn.version,
    ...(conn.client !== undefined ? { name: conn.client } : {}),
    ...(conn.credential !== undefined ? { credential: conn.credential } : {}),
  };
}

/** `{request_id}` of a method, to spread into its replies. */
export function rid(method: Method): { request_id?: string } {
  return method.request_id !== undefined ? { request_id: method.request_id } : {};
}
