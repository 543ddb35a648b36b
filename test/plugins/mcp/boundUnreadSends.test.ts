import { expect, it } from '@jest/globals';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { boundUnreadSends, UNREAD_ERROR } from '../../../plugins/mcp/boundUnreadSends.js';

/**
 * A transport whose pipe is full until `read()`: every send waits until then, and afterwards
 * each is taken at once. It records the messages in the order they reach it.
 */
function stuckTransport() {
  const waiting: (() => void)[] = [];
  const errors: Error[] = [];
  const received: unknown[] = [];
  let reading = false;
  let inPipe = 0;
  let mostInPipe = 0;
  const transport = {
    start: async () => undefined,
    close: async () => undefined,
    send: (m: JSONRPCMessage) => {
      received.push('id' in m ? m.id : undefined);
      if (reading) return Promise.resolve();
      mostInPipe = Math.max(mostInPipe, ++inPipe);
      return new Promise<void>((resolve) => waiting.push(() => (inPipe--, resolve())));
    },
    onerror: (e: Error) => errors.push(e),
  } as unknown as Transport;
  return {
    transport,
    errors,
    received,
    mostInPipe: () => mostInPipe,
    read: () => {
      reading = true;
      waiting.splice(0).forEach((r) => r());
    },
  };
}

const message = (id: number, bytes: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  result: { pad: 'x'.repeat(bytes) },
});

it('past the byte bound a send fails at once, onerror hears it once, and sends go on once the server reads', async () => {
  const { transport, errors, read } = stuckTransport();
  boundUnreadSends(transport, 1000, 100);
  const sent = [0, 1, 2].map((i) => transport.send(message(i, 400))); // the first is not measured
  const over = transport.send(message(3, 400));
  await expect(over).rejects.toThrow(UNREAD_ERROR);
  await expect(transport.send(message(4, 400))).rejects.toThrow(UNREAD_ERROR);
  expect(errors).toHaveLength(1);
  expect(errors[0].message).toMatch(/^the server stopped reading: 3 messages \(0\.0 MiB\) waiting for it$/);
  read();
  await Promise.all(sent);
  await expect(transport.send(message(5, 400))).resolves.toBeUndefined();
});

it('past the message bound a send fails however small', async () => {
  const { transport, errors } = stuckTransport();
  boundUnreadSends(transport, 10 * 1024 * 1024, 5);
  for (let i = 0; i < 5; i++) void transport.send(message(i, 1));
  await expect(transport.send(message(5, 1))).rejects.toThrow(/5 messages/);
  expect(errors).toHaveLength(1);
});

it('sends reach the pipe one at a time and in order, so a full pipe holds one write (and one drain listener)', async () => {
  const { transport, received, mostInPipe, read } = stuckTransport();
  boundUnreadSends(transport);
  const sent = Array.from({ length: 50 }, (_, i) => transport.send(message(i, 10)));
  await Promise.resolve();
  expect(received).toEqual([0]);
  read();
  await Promise.all(sent);
  expect(received).toEqual(Array.from({ length: 50 }, (_, i) => i));
  expect(mostInPipe()).toBe(1);
});

it('a send the transport refuses fails alone: the ones after it are still written', async () => {
  const { transport } = stuckTransport();
  const refused = new Error('Not connected');
  let calls = 0;
  transport.send = () => (++calls === 1 ? Promise.reject(refused) : Promise.resolve());
  boundUnreadSends(transport);
  const first = transport.send(message(0, 1));
  const second = transport.send(message(1, 1));
  await expect(first).rejects.toBe(refused);
  await expect(second).resolves.toBeUndefined();
  expect(calls).toBe(2);
});
