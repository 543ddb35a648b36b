import { afterEach, beforeAll, afterAll, describe, expect, it } from '@jest/globals';
import type { Event, Segment } from '../../../core/protocol/index.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { anthropicStream, startFakeLlmServer, type FakeLlmServer } from '../../support/fakeLlmServer.js';
import { recorder, runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';
import { waitTool } from '../../support/testPlugins.js';

const KEY_ENV = 'YOI_TEST_ANTHROPIC_KEY';
let fake: FakeLlmServer;
let tp: TestPod | undefined;
beforeAll(() => {
  process.env[KEY_ENV] = 'sk-ant-test';
});
afterAll(() => {
  delete process.env[KEY_ENV];
});
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
  await fake?.close();
});

async function pod(model: Record<string, unknown> = {}, files: Record<string, string> = {}) {
  fake = await startFakeLlmServer();
  tp = await startTestPod({
    files,
    config: {
      model: {
        provider: 'anthropic',
        model: 'claude-test',
        baseURL: fake.baseURL,
        apiKeyEnv: KEY_ENV,
        maxRetries: 0,
        ...model,
      },
    },
    plugins: [...defaultPlugins(), waitTool()],
  });
  const client = await tp.connect();
  const events = recorder(client);
  const run = async (input: Segment[] = [text('hi')]) => {
    const ended = runEnded(client);
    await client.request({ method: 'run', params: { input } });
    return ended;
  };
  return { client, events, run };
}

const of = <K extends Event['event']>(events: Event[], name: K) =>
  events.filter((e) => e.event === name).map((e) => e.data);

describe('anthropic provider through a pod', () => {
  it('streams text and tool_use blocks; results go back with is_error; usage counts the cache', async () => {
    const { events, run } = await pod({}, { 'notes.txt': 'the notes' });
    fake.reply(
      {
        kind: 'sse',
        events: anthropicStream({
          text: ['Check', 'ing.'],
          toolCalls: [
            { id: 'toolu_a', name: 'Wait', args: ['{"ms":', '1}'] },
            { id: 'toolu_b', name: 'Nope', args: [''] },
          ],
          usage: { input: 100, output: 7, cacheRead: 50, cacheWrite: 25 },
        }),
      },
      { kind: 'sse', events: anthropicStream({ text: ['Done.'], usage: { input: 10, output: 2, cacheRead: 200 } }) },
      { kind: 'sse', events: anthropicStream({ text: ['Again.'] }) },
    );
    expect(await run([text('go'), { kind: 'file_ref', path: 'notes.txt' }])).toMatchObject({
      event: 'run_end',
      data: { result: 'finished' },
    });
    expect(of(events, 'text_done')).toEqual([{ text: 'Checking.' }, { text: 'Done.' }]);
    expect(of(events, 'tool_call_done')).toEqual([
      { id: 'toolu_a', name: 'Wait', arguments: '{"ms":1}' },
      { id: 'toolu_b', name: 'Nope', arguments: '{}' },
    ]);
    expect(of(events, 'usage')).toEqual([
      { input_tokens: 175, output_tokens: 7 },
      { input_tokens: 210, output_tokens: 2 },
    ]);
    expect(await run([text('again')])).toMatchObject({ event: 'run_end', data: { result: 'finished' } });

    const [first, second, third] = fake.requests;
    expect(first.path).toBe('/v1/messages');
    expect(first.headers['x-api-key']).toBe('sk-ant-test');
    expect(first.headers['anthropic-version']).toBeDefined();
    expect(first.body).toMatchObject({ model: 'claude-test', stream: true });
    expect(first.body.system).toEqual([
      { type: 'text', text: expect.stringContaining('yoi pod'), cache_control: { type: 'ephemeral' } },
    ]);
    const wait = first.body.tools.find((t: any) => t.name === 'Wait');
    expect(wait).toMatchObject({
      description: 'Waits for ms milliseconds.',
      input_schema: { type: 'object', properties: { ms: { type: 'integer' } } },
    });
    expect(wait.input_schema.$schema).toBeUndefined();
    // The resolved file (a system item mid-conversation) goes as user text.
    expect(first.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'go' },
          { type: 'text', text: expect.stringContaining('the notes'), cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);

    const cache = { cache_control: { type: 'ephemeral' } };
    const turn = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'go' },
          { type: 'text', text: '[File: notes.txt]\nthe notes' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_a', name: 'Wait', input: { ms: 1 } },
          { type: 'tool_use', id: 'toolu_b', name: 'Nope', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'waited 1 ms\ndone after 1 ms' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: "Tool 'Nope' not found", is_error: true },
        ],
      },
    ];
    // Breakpoints: the newest message (the prefix the next request of the tool loop reuses) ...
    expect(second.body.messages).toEqual([
      turn[0],
      turn[1],
      { ...turn[2], content: [turn[2].content[0], { ...turn[2].content[1], ...cache }] },
    ]);
    // ... and the conversation before the newest user message (stable across runs).
    expect(third.body.messages).toEqual([
      ...turn,
      { role: 'assistant', content: [{ type: 'text', text: 'Done.', ...cache }] },
      { role: 'user', content: [{ type: 'text', text: 'again', ...cache }] },
    ]);
  });
});

describe('anthropic provider failures', () => {
  const ok = () => ({ kind: 'sse' as const, events: anthropicStream({ text: ['fine'] }) });
  const line = (e: Event) => (e.event === 'error' ? e.data.message : `not an error: ${e.event}`);

  it('a 401 names the variable to check; the pod keeps running', async () => {
    const { run } = await pod();
    fake.reply(
      {
        kind: 'json',
        status: 401,
        body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
      },
      ok(),
    );
    expect(line(await run())).toMatch(
      /^yoi:anthropic: authentication failed \(HTTP 401 from http:\/\/127\.0\.0\.1:\d+\/v1\/messages\): invalid x-api-key; check YOI_TEST_ANTHROPIC_KEY$/,
    );
    expect(await run()).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
  });

  it('retries a 529/429 honouring retry-after', async () => {
    const { run } = await pod({ maxRetries: 3 });
    const busy = (status: number) => ({
      kind: 'json' as const,
      status,
      headers: { 'retry-after': '0' },
      body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    fake.reply(busy(529), busy(429), ok());
    expect(await run()).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    expect(fake.requests).toHaveLength(3);
  });

  it('an error event in the stream ends the run with one line', async () => {
    const { events, run } = await pod();
    const head = anthropicStream({ text: ['partial'], noFinish: true });
    fake.reply(
      {
        kind: 'sse',
        events: [
          ...head,
          'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
        ],
      },
      ok(),
    );
    expect(line(await run())).toBe('yoi:anthropic: overloaded_error: Overloaded');
    expect(of(events, 'text_delta')).toEqual([{ text: 'partial' }]);
    expect(await run()).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
  });

  it('a missing API key stops the pod at start, saying what to set', async () => {
    const model = { provider: 'anthropic', model: 'claude-test' };
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = '';
    try {
      await expect(startTestPod({ config: { model } })).rejects.toThrow(
        'cannot start provider "anthropic": plugin yoi:anthropic failed in providers(anthropic): the API key variable ANTHROPIC_API_KEY is not set: export it, or name another variable in model.apiKeyEnv',
      );
      await expect(startTestPod({ config: { model: { ...model, apiKeyEnv: 'YOI_TEST_NOT_SET' } } })).rejects.toThrow(
        /: the API key variable YOI_TEST_NOT_SET \(model\.apiKeyEnv\) is not set$/,
      );
      await expect(startTestPod({ config: { model: { ...model, maxTokens: 0 } } })).rejects.toThrow(
        /: model\.maxTokens: must be ≥ 1$/,
      );
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});
