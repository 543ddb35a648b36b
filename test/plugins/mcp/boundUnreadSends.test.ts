import { expect, it } from '@jest/globals';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { boundUnreadSends, UNREAD_ERROR } from '../../../plugins/mcp/boundUnreadSends.js';

/** A transport whose pipe is full: every send waits until `drain()`. */
function stuckTransport() {
  const waiting: (() => void)[] = [];
  const errors: Error[] = [];
  const transport = {
    start: async () => undefined,
    close: async () => undefined,
    send: () => new Promise<void>((resolve) => waiting.push(resolve)),
    onerror: (e: Error) => errors.push(e),
  } as unknown as Transport;
  return { transport, errors, drain: () => waiting.splice(0).forEach((r) => r()) };
}

const message = (id: number, bytes: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  result: { pad: 'x'.repeat(bytes) },
});

it('past the byte bound a send fails at once, onerror hears it once, and sends go on once the server reads', async () => {
  const { transport, errors, drain } = stuckTransport();
  boundUnreadSends(transport, 1000, 100);
  const sent = [0, 1, 2].map((i) => transport.send(message(i, 400))); // the first is not measured
  const over = transport.send(message(3, 400));
  await expect(over).rejects.toThrow(UNREAD_ERROR);
  await expect(transport.send(message(4, 400))).rejects.toThrow(UNREAD_ERROR);
  expect(errors).toHaveLength(1);
  expect(errors[0].message).toMatch(/^the server stopped reading: 3 messages \(0\.0 MiB\) waiting for it$/);
  drain();
  await Promise.all(sent);
  const after = transport.send(message(5, 400));
  drain();
  await expect(after).resolves.toBeUndefined();
});

it('past the message bound a send fails however small', async () => {
  const { transport, errors } = stuckTransport();
  boundUnreadSends(transport, 10 * 1024 * 1024, 5);
  for (let i = 0; i < 5; i++) void transport.send(message(i, 1));
  await expect(transport.send(message(5, 1))).rejects.toThrow(/5 messages/);
  expect(errors).toHaveLength(1);
});
