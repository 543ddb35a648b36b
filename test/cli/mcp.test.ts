import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpStateFileSchema, type McpStateFile } from '../../plugins/mcp/McpStateSchema.js';
import { makeProject } from '../support/startTestPod.js';
import { BIN, startPodProcess, yoiAsync } from '../support/runCli.js';
import { FIXTURE, eventually, processAlive } from '../plugins/mcp/mcpServers.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const CONFIG = `export default {
  model: { provider: 'scripted', script: 'script.json' },
  mcp: { servers: {
    fx: { command: process.execPath, args: [${JSON.stringify(FIXTURE)}] },
    broken: { command: process.execPath, args: [${JSON.stringify(FIXTURE)}, '--exit-at-start'] },
    off: { command: 'never-run', enabled: false },
  } },
};
`;

function project(script: unknown[] = []) {
  const dir = makeProject({ 'yoi.config.ts': CONFIG, 'script.json': JSON.stringify(script) });
  return { dir, env: { YOI_RUNTIME_DIR: path.join(dir, 'run') } };
}

describe('yoi mcp list', () => {
  it('shows each server of the addressed pod: state, tools, resources, prompts, last error (text and --json)', async () => {
    const p = project();
    const pod = await startPodProcess(['--name', 'mcp-pod'], { cwd: p.dir, env: p.env });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    let state: McpStateFile | undefined;
    await eventually(
      () => {
        const file = path.join(p.dir, 'run', 'mcp-pod', 'mcp.json');
        try {
          state = McpStateFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
        } catch {
          return false;
        }
        return state.servers.every((s) => s.state !== 'starting');
      },
      'every server started or failed',
      30_000,
    );

    const json = await yoiAsync(['mcp', 'list', '--pod', 'mcp-pod', '--json'], { cwd: p.dir, env: p.env });
    expect(json.status).toBe(0);
    const listed = McpStateFileSchema.parse(JSON.parse(json.stdout));
    const byName = Object.fromEntries(listed.servers.map((s) => [s.name, s]));
    expect(byName.fx).toMatchObject({
      state: 'ready',
      transport: 'stdio',
      server: { name: 'fixture', version: '1.0.0' },
    });
    expect(byName.fx.tools.map((t) => t.pod_tool)).toContain('mcp__fx__echo');
    expect(byName.fx.resources.map((r) => r.uri)).toContain('fixture://notes');
    expect(byName.fx.prompts.map((pr) => pr.name)).toEqual(['greet']);
    expect(byName.broken).toMatchObject({
      state: 'failed',
      last_error: expect.stringContaining('fixture server refuses to start'),
    });
    expect(byName.off.state).toBe('disabled');

    const text = await yoiAsync(['mcp', 'list', '--socket', pod.socket], { cwd: p.dir, env: p.env });
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^fx\tready\tstdio\t\d+ tools, 3 resources, 0 templates, 1 prompts\tpid \d+$/m);
    expect(text.stdout).toContain('  prompts: /fx:greet name= mood=?');
    expect(text.stdout).toMatch(/^broken\tfailed\tstdio\t.*\n  last error: .*fixture server refuses to start/m);
    expect(text.stdout).toMatch(/^off\tdisabled\t/m);

    // A prompt as a workflow, from `yoi send` (the exhausted script answers like echo: the context it was given).
    const sent = await yoiAsync(['send', '--pod', 'mcp-pod', '--workflow', 'fx:greet', 'name=Bo mood=calm'], {
      cwd: p.dir,
      env: p.env,
    });
    expect(sent.status).toBe(0);
    expect(sent.stdout).toContain('[Prompt: fx:greet]');
    expect(sent.stdout).toContain('[user] Say hello to Bo in a calm way.');

    // `yoi pod stop` ends the servers with the pod.
    const pid = byName.fx.pid!;
    const stopped = await yoiAsync(['pod', 'stop', '--pod', 'mcp-pod'], { cwd: p.dir, env: p.env });
    expect(stopped.status).toBe(0);
    await pod.exited;
    expect(processAlive(pid)).toBe(false);
  });

  it('a pod that is not running gives one line and exit 1', async () => {
    const p = project();
    const r = await yoiAsync(['mcp', 'list', '--pod', 'nobody'], { cwd: p.dir, env: p.env });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^yoi: pod nobody is not running \(no pod listens on .*\) \[YOI_ERR_POD_NOT_FOUND\]\n$/);
  });
});

describe('yoi mcp serve', () => {
  it("the SDK's client drives pods through it: yoi_start, yoi_pods, yoi_send, yoi_history", async () => {
    const p = project([{ text: 'hello from the pod' }]);
    const runtime = path.join(p.dir, 'run');
    const client = new Client({ name: 'test', version: '1' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', 'serve'],
      cwd: p.dir,
      env: { YOI_RUNTIME_DIR: runtime },
      stderr: 'pipe',
    });
    await client.connect(transport, { timeout: 30_000 });
    cleanups.push(() => client.close());
    cleanups.push(() => yoiAsync(['pod', 'stop', '--pod', 'served'], { cwd: p.dir, env: p.env }));

    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual(['yoi_history', 'yoi_pods', 'yoi_send', 'yoi_start']);
    expect(tools.tools.find((t) => t.name === 'yoi_send')!.inputSchema).toMatchObject({ required: ['pod', 'message'] });

    const textOf = (r: Awaited<ReturnType<typeof client.callTool>>) => (r.content as { text: string }[])[0].text;
    const none = await client.callTool({ name: 'yoi_pods', arguments: {} });
    expect(textOf(none)).toBe('no pods are running');

    const started = await client.callTool({ name: 'yoi_start', arguments: { name: 'served', dir: p.dir } }, undefined, {
      timeout: 60_000,
    });
    expect(started.isError).toBeFalsy();
    expect(textOf(started)).toMatch(/^started pod served in .*, listening .*sock$/);

    const pods = JSON.parse(textOf(await client.callTool({ name: 'yoi_pods', arguments: {} })));
    expect(pods).toEqual([expect.objectContaining({ name: 'served', alive: true, state: 'idle' })]);

    const reply = await client.callTool(
      { name: 'yoi_send', arguments: { pod: 'served', message: 'hi there' } },
      undefined,
      { timeout: 60_000 },
    );
    expect(reply.isError).toBeFalsy();
    expect(textOf(reply)).toBe('hello from the pod');

    const history = textOf(await client.callTool({ name: 'yoi_history', arguments: { pod: 'served' } }));
    expect(history).toBe('user: hi there\nassistant: hello from the pod');

    const missing = await client.callTool({ name: 'yoi_send', arguments: { pod: 'ghost', message: 'x' } });
    expect(missing).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'pod ghost is not running (start it with yoi_start)' }],
    });
    const badName = await client.callTool({ name: 'yoi_start', arguments: { name: '../etc', dir: p.dir } });
    expect(badName.isError).toBe(true);
    const again = await client.callTool({ name: 'yoi_start', arguments: { name: 'served', dir: p.dir } });
    expect(again).toMatchObject({ isError: true, content: [{ text: 'pod served is already running' }] });
  }, 120_000);
});
