import { describe, expect, it } from '@jest/globals';
import { responsesStream } from '../../support/fakeLlmServer.js';

/** Each frame must be exactly one SSE event with a name and one JSON data line. */
function frames(events: string[]): { event: string; data: any }[] {
  return events.map((f) => {
    const m = /^event: ([a-z_.]+)\ndata: (.+)\n\n$/.exec(f);
    if (!m) throw new Error(`not one SSE frame: ${JSON.stringify(f)}`);
    return { event: m[1], data: JSON.parse(m[2]) };
  });
}

describe('responsesStream (the OpenAI Responses format the peers bench serves Codex)', () => {
  it('frames the deltas in order, then the whole text in the done events and the completed response, with the usage', async () => {
    const events = frames(responsesStream({ text: ['Hel', 'lo ', 'world'], usage: { input: 7, output: 3 } }));
    expect(events.map((e) => e.event)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    // Each frame's `type` is its event name, numbered in order, as the API sends them.
    expect(events.map((e) => e.data.type)).toEqual(events.map((e) => e.event));
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    expect(
      events
        .filter((e) => e.event === 'response.output_text.delta')
        .map((e) => e.data.delta)
        .join(''),
    ).toBe('Hello world');
    expect(events.find((e) => e.event === 'response.output_text.done')!.data.text).toBe('Hello world');
    const done = events.at(-1)!.data.response;
    expect(done.status).toBe('completed');
    expect(done.output).toEqual([
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hello world', annotations: [] }],
      },
    ]);
    expect(done.usage).toMatchObject({ input_tokens: 7, output_tokens: 3, total_tokens: 10 });
  });

  it('leaves out everything after the deltas for a stream cut short', async () => {
    const events = frames(responsesStream({ text: ['partial'], noFinish: true }));
    expect(events.at(-1)).toMatchObject({ event: 'response.output_text.delta', data: { delta: 'partial' } });
    expect(events.some((e) => e.event === 'response.completed')).toBe(false);
  });
});
