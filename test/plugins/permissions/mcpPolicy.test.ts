import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { McpStateFileSchema } from '../../../plugins/mcp/McpStateSchema.js';
import { startTestPod, text, type TestPod } from '../../support/startTestPod.js';
import { eventually, everything } from '../mcp/mcpServers.js';
import { Watch } from './permissionsHarness.js';

// MCP tools pass the same policy as every other tool: rules match them as `<server>/<tool>`.

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

it("a real MCP server's tools: one asked about and allowed by a second client, one denied by rule", async () => {
  const script = [
    {
      tool_calls: [
        { name: 'mcp__everything__echo', arguments: { message: 'asked first' } },
        { name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 0.1, steps: 1 } },
      ],
    },
    { text: 'done' },
  ];
  tp = await startTestPod({
    files: { 'script.json': JSON.stringify(script) },
    config: {
      model: { provider: 'scripted', script: 'script.json' },
      mcp: { servers: { everything: everything() } },
      permissions: {
        rules: [
          { tool: 'mcp__everything__*', match: 'everything/echo', action: 'ask' },
          { tool: 'mcp__*', action: 'deny' },
        ],
      },
    },
  });
  const state = path.join(tp.runtimeDir, tp.pod.name, 'mcp.json');
  await eventually(
    () => {
      try {
        return McpStateFileSchema.parse(JSON.parse(fs.readFileSync(state, 'utf8'))).servers.some(
          (s) => s.name === 'everything' && s.state === 'ready',
        );
      } catch {
        return false; // between writes
      }
    },
    'everything ready',
    60_000,
  );

  const runner = await Watch.on(tp, 'test/runner');
  const answerer = await Watch.on(tp, 'test/answerer');
  await runner.client.request({ method: 'run', params: { input: [text('go')] } });
  const ask = await answerer.request();
  expect(ask).toMatchObject({
    tool: 'mcp__everything__echo',
    summary: expect.stringContaining('everything/echo'),
    args: { message: 'asked first' },
  });
  await answerer.client.requestExtension('permission_reply', { id: ask.id, decision: 'allow_once' });
  await runner.event((e) => e.event === 'run_end', 60_000);
  const [echo, denied] = runner.results();
  expect(echo).toMatchObject({ is_error: false, output: 'Echo: asked first' });
  expect(denied.is_error).toBe(true);
  expect(JSON.stringify(denied)).toContain('denied by rule {tool: mcp__*, action: deny} of the config');
  // Only the echo was asked about.
  expect(runner.ext.filter((e) => e.event === 'permission_request')).toHaveLength(1);
  await runner.client.close();
  await answerer.client.close();
}, 120_000);
