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
  expect(def.inputSchema).toMatchObject({ type: 'object', required: ['a'], properties: { b: { type: 'boolean', default: false } } });
  await c.close();
});
