import { describe, expect, it } from '@jest/globals';
import type { LlmRequest, ProviderPart } from '../../../core/api.js';
import { ScriptedStream } from '../../../plugins/providers/scriptedStream.js';
import type { ScriptReply } from '../../../plugins/providers/scriptedProvider.js';

const request = (signal = new AbortController().signal): LlmRequest => ({ system: '', items: [], tools: [], signal });
const chunks = (n: number) => Array.from({ length: n }, (_, i) => `c${i} `);
const usage = { input_tokens: 1, output_tokens: 2 };

async function collect(stream: AsyncIterable<ProviderPart>): Promise<ProviderPart[]> {
  const parts: ProviderPart[] = [];
  for await (const p of stream) parts.push(p);
  return parts;
}

const stream = (reply: ScriptReply, signal?: AbortSignal) => {
  let id = 0;
  return new ScriptedStream(reply, request(signal), () => `call_${++id}`);
};

describe('ScriptedStream', () => {
  it('hands out every chunk in order, then the tool calls, usage and finish', async () => {
    const parts = await collect(
      stream({ chunks: chunks(200), tool_calls: [{ name: 'Read', arguments: { path: 'a' } }], usage }),
    );
    expect(parts.slice(0, 200)).toEqual(chunks(200).map((text) => ({ type: 'text-delta', text })));
    expect(parts.slice(200)).toEqual([
      { type: 'tool-call-start', id: 'call_1', name: 'Read' },
      { type: 'tool-call-delta', id: 'call_1', delta: '{"path":"a"}' },
      { type: 'tool-call-done', id: 'call_1', name: 'Read', arguments: '{"path":"a"}' },
      { type: 'usage', ...usage },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('a reply with `text` is one delta; an error follows the text and ends the stream', async () => {
    expect(await collect(stream({ text: 'hello', error: 'boom' }))).toEqual([
      { type: 'text-delta', text: 'hello' },
      { type: 'error', message: 'boom' },
    ]);
  });

  it('counts the output tokens from the text when the script gives no usage', async () => {
    const parts = await collect(stream({ chunks: ['abcd', 'efgh'] }));
    expect(parts.find((p) => p.type === 'usage')).toMatchObject({ output_tokens: 2 });
    expect(parts.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('lets the event loop run before every 64th chunk, not before the others', async () => {
    const turnsAt: number[] = [];
    let turned = false;
    const tick = () => {
      turned = true;
    };
    let i = 0;
    for await (const p of stream({ chunks: chunks(256), usage })) {
      if (p.type !== 'text-delta') continue;
      if (turned) turnsAt.push(i);
      turned = false;
      setImmediate(tick);
      i++;
    }
    expect(turnsAt).toEqual([63, 127, 191, 255]);
  });

  it('stops before the next chunk once the request is aborted: no more text, no usage, no finish', async () => {
    const ac = new AbortController();
    const parts: ProviderPart[] = [];
    for await (const p of stream({ chunks: chunks(500), usage }, ac.signal)) {
      parts.push(p);
      if (parts.length === 10) ac.abort();
    }
    expect(parts).toHaveLength(10);
  });

  it('an abort during the delay ends the stream without a part', async () => {
    const ac = new AbortController();
    const s = stream({ delay_ms: 600_000, chunks: ['never'], usage }, ac.signal);
    const first = s.next();
    ac.abort();
    expect(await first).toEqual({ value: undefined, done: true });
  });

  it('waits for the delay before the first chunk', async () => {
    let timerFired = false;
    setTimeout(() => (timerFired = true), 1);
    const s = stream({ delay_ms: 20, chunks: ['late'], usage });
    const first = await s.next();
    expect(first).toEqual({ value: { type: 'text-delta', text: 'late' }, done: false });
    expect(timerFired).toBe(true); // a 1 ms timer set earlier fired before a 20 ms delay ended
  });

  it('a consumer that leaves early ends it: later calls are done', async () => {
    const s = stream({ chunks: chunks(10), tool_calls: [{ name: 'Read', arguments: {} }], usage });
    for await (const p of s) if (p.type === 'text-delta' && p.text === 'c3 ') break;
    expect(await s.next()).toEqual({ value: undefined, done: true });
  });

  it('calls made before the previous one resolved get the parts in order', async () => {
    const s = stream({ chunks: chunks(150), usage });
    const all = await Promise.all(Array.from({ length: 154 }, () => s.next()));
    expect(all.slice(0, 150).map((r) => (r.value as { text: string }).text)).toEqual(chunks(150));
    expect(all.slice(150).map((r) => r.value?.type ?? 'done')).toEqual(['usage', 'finish', 'done', 'done']);
  });

  it('hands the chunks between two turns of the event loop out without a promise, then waits again', async () => {
    const s = stream({ chunks: chunks(130), usage });
    expect((await s.next()).value).toEqual({ type: 'text-delta', text: 'c0 ' });
    const taken: string[] = [];
    for (let p = s.takeBuffered(); p; p = s.takeBuffered()) taken.push((p as { text: string }).text);
    expect(taken).toEqual(chunks(63).slice(1)); // c1 … c62: c63 comes after a turn
    expect((await s.next()).value).toEqual({ type: 'text-delta', text: 'c63 ' });
    const parts: ProviderPart[] = [];
    for (let p = s.takeBuffered(); p; p = s.takeBuffered()) parts.push(p);
    expect(parts).toHaveLength(63); // c64 … c126
    expect((await s.next()).value).toEqual({ type: 'text-delta', text: 'c127 ' });
    expect([s.takeBuffered(), s.takeBuffered(), s.takeBuffered()].map((p) => p && 'text' in p && p.text)).toEqual([
      'c128 ',
      'c129 ',
      undefined, // the text is over: usage and finish come by `next()`
    ]);
    expect((await s.next()).value).toEqual({ type: 'usage', ...usage });
  });
});
