import { afterEach, describe, expect, it } from '@jest/globals';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { responsesStream, startFakeLlmServer, type FakeLlmServer } from '../../support/fakeLlmServer.js';

let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** POSTs to the fake server and parses the SSE answer as a client would, frame by frame. */
async function streamed(path: string): Promise<{ event?: string; data: any }[]> {
  const res = await fetch(`${fake!.baseURL}${path}`, { method: 'POST', body: '{"stream":true}' });
  const out: { event?: string; data: any }[] = [];
  const parser = createParser({ onEvent: (m: EventSourceMessage) => out.push({ event: m.event, data: JSON.parse(m.data) }) });
  const decoder = new TextDecoder();
  for await (const chunk of res.body as any as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
  return out;
}

describe('responsesStream (the OpenAI Responses format the peers bench serves Codex)', () => {
  it('streams the deltas in order, then the whole text in the done events and the completed response, with the usage', async () => {
    fake = await startFakeLlmServer();
    fake.reply({ kind: 'sse', events: responsesStream({ text: ['Hel', 'lo ', 'world'], usage: { input: 7, output: 3 } }) });
    const events = await streamed('/responses');
    expect(events.map((e) => e.event)).toEqual([
      'response.created', 'response.output_item.added', 'response.content_part.added',
      'response.output_text.delta', 'response.output_text.delta', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed',
    ]);
    // Each frame's `type` is its event name, numbered in order, as the API sends them.
    expect(events.map((e) => e.data.type)).toEqual(events.map((e) => e.event));
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.filter((e) => e.event === 'response.output_text.delta').map((e) => e.data.delta).join('')).toBe('Hello world');
    expect(events.find((e) => e.event === 'response.output_text.done')!.data.text).toBe('Hello world');
    const done = events.at(-1)!.data.response;
    expect(done.status).toBe('completed');
    expect(done.output).toEqual([{ id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello world', annotations: [] }] }]);
    expect(done.usage).toMatchObject({ input_tokens: 7, output_tokens: 3, total_tokens: 10 });
  });

  it('leaves out everything after the deltas for a stream cut short', async () => {
    fake = await startFakeLlmServer();
    fake.reply({ kind: 'sse', events: responsesStream({ text: ['partial'], noFinish: true }) });
    const events = await streamed('/responses');
    expect(events.at(-1)).toMatchObject({ event: 'response.output_text.delta', data: { delta: 'partial' } });
    expect(events.some((e) => e.event === 'response.completed')).toBe(false);
  });
});
