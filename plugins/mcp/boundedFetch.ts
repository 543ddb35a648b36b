import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** As the SDK bounds a stdio server's messages: one message (a JSON body, an SSE event) at most. */
export const MAX_HTTP_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * `fetch` for the SDK's HTTP transports whose responses are bounded: a JSON body by its size, an
 * event stream by the size of each event (the stream itself may last). The SDK reads a response
 * whole (`response.json()`) or an event whole, and keeps reading after the request timed out:
 * an endless body from a hostile server grew the pod without limit. Past the bound the body
 * errors with one line and the connection is dropped.
 */
export function boundedFetch(maxBytes = MAX_HTTP_MESSAGE_BYTES, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body || NULL_BODY_STATUS.has(response.status)) return response;
    const events = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const body = response.body.pipeThrough(events ? eventBound(maxBytes) : totalBound(maxBytes));
    const bounded = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // Redirect checks resolve a relative Location against the response's URL.
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}

/** Statuses a `Response` cannot be built with a body for. */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

function tooLarge(maxBytes: number, what: string): Error {
  return new Error(`the MCP server sent ${what} over ${maxBytes / 1024 / 1024} MiB: dropped`);
}

function totalBound(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) controller.error(tooLarge(maxBytes, 'a response'));
      else controller.enqueue(chunk);
    },
  });
}

/** Counts the bytes of the event being read; a blank line (`\n`, `\r` or `\r\n` twice) ends one. */
function eventBound(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let event = 0;
  let line = 0;
  let afterCr = false;
  return new TransformStream({
    transform(chunk, controller) {
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i];
        if (b === 0x0a && afterCr) {
          afterCr = false; // the \n of \r\n
          continue;
        }
        afterCr = b === 0x0d;
        if (b === 0x0a || b === 0x0d) {
          if (line === 0) event = 0;
          line = 0;
          continue;
        }
        line++;
        if (++event > maxBytes) {
          controller.error(tooLarge(maxBytes, 'an event'));
          return;
        }
      }
      controller.enqueue(chunk);
    },
  });
}
