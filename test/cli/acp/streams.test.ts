import { describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import type { AnyMessage, SessionUpdate } from '@agentclientprotocol/sdk';
import { stdioStream } from '../../../cli/acp/stdioStream.js';
import { UpdateQueue } from '../../../cli/acp/UpdateQueue.js';
import { stopReason } from '../../../cli/acp/stopReason.js';

/** Feeds `chunks` to a stdioStream; returns the messages it read and the lines it wrote back. */
async function through(chunks: string[], max: number): Promise<{ read: AnyMessage[]; wrote: unknown[] }> {
  const input = new PassThrough();
  const output = new PassThrough();
  const stream = stdioStream(input, output, max);
  for (const c of chunks) input.write(Buffer.from(c));
  input.end();
  const read: AnyMessage[] = [];
  const reader = stream.readable.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) read.push(r.value);
  output.end();
  const text: string[] = [];
  for await (const c of output) text.push(String(c));
  const wrote = text
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);
  return { read, wrote };
}

describe('stdio limits and ordering', () => {
  it('stdioStream reads lines whatever the chunking, answers a longer one, non-JSON, non-objects and batches with JSON-RPC errors, and goes on', async () => {
    const ok = { jsonrpc: '2.0', id: 1, method: 'a' };
    const { read, wrote } = await through(['{"jsonrpc":"2.0","id":1,', '"method":"a"}\n', '\n  \n'], 64);
    expect(read).toEqual([ok]);
    expect(wrote).toEqual([]);

    const long = `{"jsonrpc":"2.0","id":2,"method":"${'x'.repeat(80)}"}`;
    const mixed = await through(
      [
        JSON.stringify(ok),
        '\n',
        long.slice(0, 30),
        long.slice(30),
        '\nnot json\n7\n',
        `${JSON.stringify(ok)}\r\n`,
        '[]\n',
        `[${JSON.stringify(ok)}]\n`,
        JSON.stringify(ok),
      ],
      64,
    );
    // The long line and the batches are never handed on (the SDK closes the connection on a
    // batch); the last line needs no newline; CRLF is fine.
    expect(mixed.read).toEqual([ok, ok, ok]);
    expect(mixed.wrote).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: expect.objectContaining({ code: -32700, message: expect.stringContaining('longer than 64 bytes') }),
      },
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700 }) },
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
      ...[1, 2].map(() => ({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid request: batches are not supported' },
      })),
    ]);
  });

  it('stdioStream stops reading an editor that floods bad lines without reading the answers, and goes on once it reads', async () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 1024 });
    const reader = stdioStream(input, output, 64).readable.getReader();
    const next = reader.read();
    const chunk = Buffer.from('x\n'.repeat(100));
    let sent = 0;
    // Until the stream stops taking chunks; far more than it could answer unread.
    for (let more = true; more && sent < 1000; sent++) {
      more = input.write(chunk);
      await new Promise((r) => setImmediate(r));
    }
    expect(sent).toBeLessThan(1000);
    await new Promise((r) => setImmediate(r));
    expect(input.isPaused()).toBe(true);
    const held = output.readableLength;
    expect(held).toBeLessThan(2 * 100 * 80 + 1024); // the answers to one or two chunks, not to all
    input.write('{"jsonrpc":"2.0","id":9,"method":"m"}\n');
    output.resume(); // the editor reads again: every bad line still gets its answer
    let answers = 0;
    output.on('data', (c: Buffer) => (answers += String(c).split('\n').length - 1));
    expect((await next).value).toEqual({ jsonrpc: '2.0', id: 9, method: 'm' });
    await new Promise((r) => setImmediate(r));
    expect(answers).toBe(sent * 100);
  });

  it('stdioStream writes each message as one JSON line and waits for the editor to drain', async () => {
    const output = new PassThrough({ highWaterMark: 16 });
    const writer = stdioStream(new PassThrough(), output, 64).writable.getWriter();
    let settled = false;
    const write = writer
      .write({ jsonrpc: '2.0', method: 'n', params: { text: 'x'.repeat(40) } })
      .then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false); // past the high-water mark: held until read
    const line = String(output.read());
    await write;
    expect(JSON.parse(line)).toEqual({ jsonrpc: '2.0', method: 'n', params: { text: 'x'.repeat(40) } });
    expect(line.endsWith('}\n')).toBe(true);
  });

  it('UpdateQueue sends in order, one at a time, joining text chunks that wait', async () => {
    const sent: SessionUpdate[] = [];
    let release!: () => void;
    let gate = new Promise<void>((r) => (release = r));
    const q = new UpdateQueue(
      async (u) => {
        sent.push(u);
        await gate;
      },
      () => undefined,
    );
    const text = (t: string): SessionUpdate => ({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: t },
    });
    q.push(text('a'));
    q.push(text('b'));
    q.push(text('c'));
    q.push({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'x' });
    q.push(text('d'));
    release();
    gate = Promise.resolve();
    await q.flushed();
    expect(sent).toEqual([
      text('a'),
      text('bc'),
      { sessionUpdate: 'tool_call', toolCallId: 'x', title: 'x' },
      text('d'),
    ]);
  });

  it('stop reasons: cancelled by the editor wins; finished, paused, limit, cancelled elsewhere; failures have none', () => {
    const end = (result: string) => ({
      kind: 'end' as const,
      event: { event: 'run_end' as const, data: { result: result as 'finished' } },
    });
    expect(stopReason(end('finished'), true)).toBe('cancelled');
    expect(stopReason({ kind: 'error', code: 'provider_error', message: 'x' }, true)).toBe('cancelled');
    expect(stopReason(end('finished'), false)).toBe('end_turn');
    expect(stopReason(end('paused'), false)).toBe('end_turn');
    expect(stopReason(end('limit_reached'), false)).toBe('max_turn_requests');
    expect(stopReason(end('cancelled'), false)).toBe('cancelled');
    expect(stopReason({ kind: 'error', code: 'provider_error', message: 'x' }, false)).toBeUndefined();
    expect(stopReason({ kind: 'lost', message: 'x' }, false)).toBeUndefined();
  });
});
