import { stringifyWellFormed } from './json/wellFormed.js';

/**
 * A v2 event defined by a plugin (`api.event(...)`), not by the protocol: `permission_request`,
 * `mcp_servers`. Encoded like protocol events (`{"event":…,"seq":…,"data":…}`); a v1 client gets
 * the alert text the definition gives for it, or nothing.
 */
export class ExtensionEvent {
  constructor(
    readonly event: string,
    /** Already validated against the definition's schema (canonical form). */
    readonly data: unknown,
    /** Droppable extension events may be replaced by a lag marker for a slow client. */
    readonly droppable: boolean,
    /** The alert message a v1 client receives instead, if any. */
    readonly v1Alert?: string,
    readonly request_id?: string,
  ) {}

  /** The same event as a reply to `requestId`. */
  withRequestId(requestId: string | undefined): ExtensionEvent {
    return requestId === undefined
      ? this
      : new ExtensionEvent(this.event, this.data, this.droppable, this.v1Alert, requestId);
  }
}

/** One compact JSON line (without `\n`), v2 fields only when set. */
export function encodeExtensionEvent(e: ExtensionEvent, seq?: number): string {
  const rid = e.request_id !== undefined ? `,"request_id":${JSON.stringify(e.request_id)}` : '';
  const s = seq !== undefined ? `,"seq":${seq}` : '';
  const data = e.data === undefined ? '' : `,"data":${stringifyWellFormed(e.data)}`;
  return `{"event":${JSON.stringify(e.event)}${rid}${s}${data}}`;
}
