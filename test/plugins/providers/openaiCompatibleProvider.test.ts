import { afterEach, describe, expect, it } from '@jest/globals';
import type { Event, Segment } from '../../../core/protocol/index.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { openAiStream, startFakeLlmServer, type FakeLlmServer } from '../../support/fakeLlmServer.js';
import { recorder, runEnded, startTestPod, text, until, type TestPod } from '../../support/startTestPod.js';
import { waitTool } from '../../support/testPlugins.js';

let fake: FakeLlmServer;
let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
  await fake?.close();
});

async function pod(model: Record<string, unknown> = {}, files: Record<string, string> = {}) {
  fake = await startFakeLlmServer();
  tp = await startTestPod({
    files,
    config: { model: { provider: 'openai-compatible', baseURL: fake.baseURL, model: 'qwen', maxRetries: 0, ...model } },
    plugins: [...defaultPlugins(), waitTool()],
  });
  const client = await tp.connect();
  const events = recorder(client);
  /** Sends a run and resolves with its terminal event. */
  const run = async (input: Segment[] = [text('hi')]) => {
    const ended = runEnded(client);
    await client.request({ method: 'run', params: { input } });
    return ended;
  };
  return { client, events, run };
}

const names = (events: Event[]) => events.map((e) => e.event);
const errorLine = (e: Event) => (e.event === 'error' ? e.data.message : `not an error: ${e.event}`);

describe('openai-compatible provider through a pod', () => {
  it('streams text without a block start, tool calls with argument deltas, usage; results go back', async () => {
    const { events, run } = await pod({}, { 'notes.txt': 'the notes' });
    fake.reply(
      {
        kind: 'sse',
        events: openAiStream({
          text: ['Let me ', 'wait.'],
          toolCalls: [
            { id: 'call_a', name: 'Wait', args: ['{"ms"', ':1}'] },
            { id: 'call_b', name: 'Nope', args: ['{}'] },
          ],
          usage: { input: 120, output: 9 },
        }),
      },
      { kind: 'sse', events: openAiStream({ text: ['Done', '.'], usage: { input: 150, output: 2 } }) },
    );
    const end = await run([text('go '), { kind: 'file_ref', path: 'notes.txt' }]);
    expect(end).toMatchObject({ event: 'run_end', data: { result: 'finished' } });

    const deltas = events.filter((e) => e.event === 'text_delta').map((e) => e.event === 'text_delta' && e.data.text);
    expect(deltas).toEqual(['Let me ', 'wait.', 'Done', '.']);
    expect(events.filter((e) => e.event === 'text_done').map((e) => e.event === 'text_done' && e.data.text)).toEqual([
      'Let me wait.',
      'Done.',
    ]);
    expect(
      events
        .filter((e) => e.event === 'tool_call_args_delta')
        .map((e) => e.event === 'tool_call_args_delta' && e.data.json),
    ).toEqual(['{"ms"', ':1}', '{}']);
    expect(events.filter((e) => e.event === 'tool_call_done').map((e) => e.data)).toEqual([
      { id: 'call_a', name: 'Wait', arguments: '{"ms":1}' },
      { id: 'call_b', name: 'Nope', arguments: '{}' },
    ]);
    expect(events.filter((e) => e.event === 'usage').map((e) => e.data)).toEqual([
      { input_tokens: 120, output_tokens: 9 },
      { input_tokens: 150, output_tokens: 2 },
    ]);
    expect(events.filter((e) => e.event === 'tool_result').map((e) => e.data)).toEqual([
      { id: 'call_a', summary: 'waited 1 ms', output: 'done after 1 ms', is_error: false },
      { id: 'call_b', summary: "Tool 'Nope' not found", is_error: true },
    ]);

    const [first, second] = fake.requests.map((r) => r.body);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(fake.requests[0].headers.authorization).toBeUndefined(); // no apiKeyEnv: no key sent
    expect(first).toMatchObject({ model: 'qwen', stream: true, stream_options: { include_usage: true } });
    expect(first.tools.map((t: any) => t.function.name)).toEqual(expect.arrayContaining(['Read', 'Wait']));
    const wait = first.tools.find((t: any) => t.function.name === 'Wait');
    expect(wait).toMatchObject({
      type: 'function',
      function: {
        description: 'Waits for ms milliseconds.',
        parameters: { type: 'object', properties: { ms: { type: 'integer' } } },
      },
    });
    expect(wait.function.parameters.$schema).toBeUndefined();
    // The resolved @file is a system item after the user message: it reaches the model.
    expect(first.messages.map((m: any) => m.role)).toEqual(['system', 'user', 'system']);
    expect(first.messages[2].content).toContain('the notes');
    expect(second.messages.slice(3)).toEqual([
      {
        role: 'assistant',
        content: 'Let me wait.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'Wait', arguments: '{"ms":1}' } },
          { id: 'call_b', type: 'function', function: { name: 'Nope', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'waited 1 ms\ndone after 1 ms' },
      { role: 'tool', tool_call_id: 'call_b', content: "Tool 'Nope' not found" },
    ]);

    const history = tp!.pod.controller.history;
    expect(history.slice(2)).toEqual([
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Let me wait.' }] },
      { type: 'tool_call', call_id: 'call_a', name: 'Wait', arguments: '{"ms":1}' },
      { type: 'tool_call', call_id: 'call_b', name: 'Nope', arguments: '{}' },
      { type: 'tool_result', call_id: 'call_a', summary: 'waited 1 ms', content: 'done after 1 ms', is_error: false },
      { type: 'tool_result', call_id: 'call_b', summary: "Tool 'Nope' not found", is_error: true },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
  });
});

describe('openai-compatible provider failures: one readable line, and the pod keeps running', () => {
  const ok = () => ({ kind: 'sse' as const, events: openAiStream({ text: ['fine'] }) });

  it('says how many attempts were made when the retries run out', async () => {
    const { run } = await pod({ maxRetries: 1 });
    const busy = {
      kind: 'json' as const,
      status: 503,
      headers: { 'retry-after': '0' },
      body: { error: { message: 'overloaded' } },
    };
    fake.reply(busy, busy, ok());
    expect(errorLine(await run())).toMatch(
      /^yoi:openai-compatible: server error \(HTTP 503 from \S+\) after 2 attempts: overloaded$/,
    );
    expect(fake.requests).toHaveLength(2);
    expect(await run()).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
  });

  it('retries a 429 honouring retry-after, then streams the reply', async () => {
    const { run } = await pod({ maxRetries: 2 });
    fake.reply(
      { kind: 'json', status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'slow down' } } },
      ok(),
    );
    expect(await run()).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    expect(fake.requests).toHaveLength(2);
    expect(tp!.pod.controller.history.at(-1)).toMatchObject({ role: 'assistant', content: [{ text: 'fine' }] });
  });

  it.each([
    [
      'a 500',
      { kind: 'json', status: 500, body: { error: { message: 'boom' } } },
      /^yoi:openai-compatible: server error \(HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions\): boom$/,
    ],
    [
      'a 429 out of retries',
      { kind: 'json', status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'slow down' } } },
      /^yoi:openai-compatible: rate limited \(HTTP 429 from \S+\): slow down$/,
    ],
    [
      'a malformed SSE stream',
      { kind: 'sse', events: ['data: {"choices": [oops\n\n', 'data: [DONE]\n\n'] },
      /^yoi:openai-compatible: malformed response stream: not JSON: \{"choices": \[oops$/,
    ],
    [
      'a connection reset mid-stream',
      { kind: 'sse', events: openAiStream({ text: ['a', 'b', 'c'] }), resetAfter: 2 },
      /^yoi:openai-compatible: the response stream broke off \(from \S+\): other side closed$/,
    ],
    // (Retried when maxRetries allows: see test/cli/providers.test.ts, which runs outside jest's realm.)
    [
      'a connection reset before the response',
      { kind: 'reset' },
      /^yoi:openai-compatible: cannot reach \S+: .*other side closed$/,
    ],
    [
      'a stream that ends without finishing',
      { kind: 'sse', events: openAiStream({ text: ['a'], noFinish: true }) },
      /^yoi:openai-compatible: Response stream ended without a finish reason\.$/,
    ],
  ] as const)('%s', async (_name, reply, line) => {
    const { events, run } = await pod();
    fake.reply(reply as never, ok());
    const end = await run();
    expect(errorLine(end)).toMatch(line);
    expect(end).toMatchObject({ data: { code: 'provider_error' } });
    expect(names(events).filter((n) => n === 'error' || n === 'run_end')).toEqual(['error']);
    // The partial reply is not committed; the next run works.
    expect(tp!.pod.controller.history.filter((i) => i.type === 'message' && i.role === 'assistant')).toEqual([]);
    expect(await run()).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    expect(tp!.pod.status).toBe('idle');
  });

  it('a 401 names the variable the key came from', async () => {
    process.env.YOI_TEST_OPENAI_KEY = 'sk-test-123';
    try {
      const { run } = await pod({ apiKeyEnv: 'YOI_TEST_OPENAI_KEY' });
      fake.reply({ kind: 'json', status: 401, body: { error: { message: 'Incorrect API key provided' } } });
      expect(errorLine(await run())).toMatch(
        /^yoi:openai-compatible: authentication failed \(HTTP 401 from \S+\): Incorrect API key provided; check YOI_TEST_OPENAI_KEY$/,
      );
      expect(fake.requests[0].headers.authorization).toBe('Bearer sk-test-123');
    } finally {
      delete process.env.YOI_TEST_OPENAI_KEY;
    }
  });

  it('a 401 without a key says to configure one', async () => {
    const { run } = await pod();
    fake.reply({ kind: 'json', status: 401, body: { error: { message: 'missing key' } } });
    expect(errorLine(await run())).toMatch(
      /no API key was sent: set model\.apiKeyEnv to the environment variable that holds it$/,
    );
  });

  it('cancel stops the HTTP stream at once; the partial reply is dropped', async () => {
    const { client, events, run } = await pod();
    const many = Array.from({ length: 200 }, (_, i) => `w${i} `);
    fake.reply({ kind: 'sse', events: openAiStream({ text: many }), delayMs: 20 }, ok());
    const ended = runEnded(client);
    await client.request({ method: 'run', params: { input: [text('long')] } });
    await until(events, (e) => e.event === 'text_delta');
    await client.request({ method: 'cancel' });
    expect(await ended).toMatchObject({ event: 'run_end', data: { result: 'cancelled' } });
    await fake.whenAbandoned(1);
    expect(events.filter((e) => e.event === 'text_delta').length).toBeLessThan(many.length);
    expect(tp!.pod.controller.history.filter((i) => i.type === 'message' && i.role === 'assistant')).toEqual([]);
    expect(await run()).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
  });

  it('a server that stalls is abandoned after timeoutMs', async () => {
    const { run } = await pod({ timeoutMs: 300 });
    fake.reply({ kind: 'sse', events: openAiStream({ text: ['a'] }).slice(0, 2), hang: true }, ok());
    expect(errorLine(await run())).toBe(
      'yoi:openai-compatible: no response for 300 ms (model.timeoutMs); the request was abandoned',
    );
    await fake.whenAbandoned(1);
    expect(await run()).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
  });
});

describe('openai-compatible settings', () => {
  it.each([
    [
      { baseURL: 'not a url' },
      /^cannot start provider "openai-compatible": plugin yoi:openai-compatible failed in providers\(openai-compatible\): model\.baseURL: expected an http\(s\) URL$/,
    ],
    [{ baseUrl: 'http://x/v1' }, /model\.baseUrl: unknown key \(did you mean "baseURL"\?\)/],
    [
      { apiKeyEnv: 'YOI_TEST_SURELY_UNSET' },
      /the API key variable YOI_TEST_SURELY_UNSET \(model\.apiKeyEnv\) is not set$/,
    ],
  ])('%j is refused when the pod starts', async (extra, message) => {
    const model = { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'm', ...extra };
    const start = startTestPod({ config: { model } });
    await expect(start).rejects.toThrow(message);
  });
});
