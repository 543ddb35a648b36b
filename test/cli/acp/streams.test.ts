import { describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { LineLimit } from '../../../cli/acp/LineLimit.js';
import { UpdateQueue } from '../../../cli/acp/UpdateQueue.js';
import { stopReason } from '../../../cli/acp/stopReason.js';

async function through(chunks: string[], max: number): Promise<string> {
  const out: Buffer[] = [];
  for await (const c of Readable.from(chunks.map((s) => Buffer.from(s))).pipe(new LineLimit(max)))
    out.push(c as Buffer);
  return Buffer.concat(out).toString();
}

describe('stdio limits and ordering', () => {
  it('LineLimit passes lines up to the limit whatever the chunking, and swaps a longer one for a short non-JSON line', async () => {
    expect(await through(['{"a":1}\n{"b"', ':2}\n'], 7)).toBe('{"a":1}\n{"b":2}\n');
    expect(await through(['{"a":1}\n', 'x'.repeat(5), 'y'.repeat(5), 'z\n{"c":3}\n'], 8)).toBe(
      '{"a":1}\nxxxxxline of 11 bytes dropped: longer than 8\n{"c":3}\n',
    );
    expect(await through(['0123456789'], 4)).toBe('line of 10 bytes dropped: longer than 4\n');
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
