import { afterEach, expect, it } from '@jest/globals';
import { z } from 'zod';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import type { ToolDefinition } from '../../../core/provider/Provider.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
});

it('tool definitions describe the input the model writes: defaulted fields are not required', async () => {
  const seen: ToolDefinition[][] = [];
  const probe = definePlugin({
    name: 'test:probe',
    apply(host) {
      host.hooks.tools.for('Probe').tap('test:probe', () => ({
        name: 'Probe',
        description: 'probe',
        input: z.object({ a: z.string(), b: z.boolean().default(false) }),
        execute: async () => ({ summary: 'ok' }),
      }));
      host.hooks.beforeTurn.tapPromise('test:probe', async (request) => {
        seen.push([...request.tools]);
        return request;
      });
    },
  });
  tp = await startTestPod({ plugins: [...defaultPlugins(), probe()] });
  const c = await tp.connect();
  const ended = runEnded(c);
  await c.request({ method: 'run', params: { input: [text('hi')] } });
  await ended;
  const def = seen[0].find((t) => t.name === 'Probe')!;
  expect(def.inputSchema).toMatchObject({
    type: 'object',
    required: ['a'],
    properties: { b: { type: 'boolean', default: false } },
  });
  await c.close();
});

it('listTools changes the tool set between requests: the model sees the current tools and calls are looked up in them', async () => {
  const seen: string[][] = [];
  let extra = false;
  const dynamic = definePlugin({
    name: 'test:dynamic',
    apply(host) {
      const late = {
        name: 'Late',
        description: 'appears at run time',
        input: z.record(z.string(), z.unknown()),
        inputJsonSchema: { type: 'object', properties: { q: { type: 'string', description: 'own schema' } } },
        execute: async (
          input: Record<string, unknown>,
          ctx: { progress?: (p: { progress: number; total?: number; message?: string }) => void },
        ) => {
          ctx.progress?.({ progress: 1, total: 2, message: 'half' });
          return { summary: `late got ${JSON.stringify(input)}` };
        },
      };
      host.hooks.listTools.tap('test:dynamic', (tools) => (extra ? [...tools, late] : tools));
      host.hooks.beforeTurn.tapPromise('test:dynamic', async (request) => {
        seen.push(request.tools.map((t) => t.name));
        if (request.tools.some((t) => t.name === 'Late'))
          expect(request.tools.find((t) => t.name === 'Late')!.inputSchema).toEqual(late.inputJsonSchema);
        extra = true; // from the next request on
        return request;
      });
    },
  });
  const script = [
    { tool_calls: [{ name: 'Late', arguments: { q: 'x' } }] },
    { tool_calls: [{ name: 'Late', arguments: { q: 'y' } }] },
    { text: 'done' },
  ];
  tp = await startTestPod({
    plugins: [...defaultPlugins(), dynamic()],
    files: { 'script.json': JSON.stringify(script) },
    config: { model: { provider: 'scripted', script: 'script.json' } },
  });
  const c = await tp.connect();
  const events: import('../../../core/protocol/index.js').Event[] = [];
  c.onEvent((e) => events.push(e));
  const ended = runEnded(c);
  await c.request({ method: 'run', params: { input: [text('hi')] } });
  await ended;
  expect(seen[0]).not.toContain('Late');
  expect(seen[1]).toContain('Late');
  const results = events
    .filter((e) => e.event === 'tool_result')
    .map((e) => e.data as { summary: string; is_error: boolean });
  // The first call came before Late existed: not found. The second ran with the input as given.
  expect(results[0]).toMatchObject({ summary: "Tool 'Late' not found", is_error: true });
  expect(results[1]).toMatchObject({ summary: 'late got {"q":"y"}', is_error: false });
  const progress = events.filter((e) => e.event === 'tool_progress');
  expect(progress).toHaveLength(1);
  expect(progress[0].data).toMatchObject({ progress: 1, total: 2, message: 'half' });
  await c.close();
});

it('tool_progress is never sent to a v1 client', async () => {
  const progressTool = definePlugin({
    name: 'test:progress',
    apply(host) {
      host.hooks.tools.for('Slowly').tap('test:progress', () => ({
        name: 'Slowly',
        description: 'reports progress',
        input: z.object({}),
        execute: async (_i, ctx) => {
          ctx.progress?.({ progress: 1 });
          return { summary: 'ok' };
        },
      }));
    },
  });
  tp = await startTestPod({
    plugins: [...defaultPlugins(), progressTool()],
    files: { 'script.json': JSON.stringify([{ tool_calls: [{ name: 'Slowly', arguments: {} }] }, { text: 'done' }]) },
    config: { model: { provider: 'scripted', script: 'script.json' } },
  });
  const v2 = await tp.connect(2);
  const v1 = await tp.connect(1);
  const seen1: string[] = [];
  const seen2: string[] = [];
  v1.onEvent((e) => seen1.push(e.event));
  v2.onEvent((e) => seen2.push(e.event));
  const ended1 = v1.waitFor((e) => e.event === 'run_end');
  const ended2 = runEnded(v2);
  await v2.request({ method: 'run', params: { input: [text('go')] } });
  await Promise.all([ended1, ended2]);
  expect(seen2).toContain('tool_progress');
  expect(seen1).toContain('tool_result');
  expect(seen1).not.toContain('tool_progress');
  await v1.close();
  await v2.close();
});

it('a beforeTurn tap that changes one request’s tool list leaves the next request’s list whole', async () => {
  const seen: string[][] = [];
  const trimmer = definePlugin({
    name: 'test:trimmer',
    apply(host) {
      host.hooks.beforeTurn.tapPromise('test:trimmer', async (request) => {
        seen.push(request.tools.map((t) => t.name));
        (request.tools as unknown[]).length = 0; // this request offers no tools (a JavaScript tap may)
        return request;
      });
    },
  });
  tp = await startTestPod({ plugins: [...defaultPlugins(), trimmer()] });
  const c = await tp.connect();
  for (let i = 0; i < 3; i++) {
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text(`run ${i}`)] } });
    await ended;
  }
  expect(seen).toHaveLength(3);
  expect(seen[0].length).toBeGreaterThan(0);
  expect(seen[1]).toEqual(seen[0]);
  expect(seen[2]).toEqual(seen[0]);
  await c.close();
});
