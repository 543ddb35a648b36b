import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { makeProject } from '../support/startTestPod.js';
import { yoi } from '../support/runCli.js';
import { acpCleanups, acpProject, isChunk } from './acp/acpHarness.js';
import { EVERYTHING, eventually } from '../plugins/mcp/mcpServers.js';

// `yoi acp` with the MCP servers an editor passes in `session/new` (split from acp.test.ts).
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const { editor, stopPodsAfter } = acpCleanups(cleanups);

describe("yoi acp and the editor's MCP servers", () => {
  it("hands them to the pod it starts as launch.mcp.servers, in the config's form, through a private file that is gone once the pod listens", async () => {
    const dir = makeProject({
      // Stands in for the MCP plugin at the boundary yoi acp controls: what the pod was launched with.
      'yoi.config.mjs': [
        "import fs from 'node:fs';",
        "import { defaultPlugins, definePlugin } from 'yoi';",
        "const probe = definePlugin({ name: 'test:launch', apply(api) { api.hooks.podInit.tapPromise('test:launch', async (pod) => { fs.writeFileSync('launch.json', JSON.stringify(pod.launch)); }); } });",
        // Without yoi:mcp (the servers are made up): the editor is told they go unused.
        "export default { plugins: [...defaultPlugins({ exclude: ['yoi:mcp'] }), probe()] };",
      ].join('\n'),
    });
    const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
    stopPodsAfter(dir, env);
    const ed = editor(dir, env);
    await ed.conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const created = await ed.conn.newSession({
      cwd: dir,
      mcpServers: [
        {
          name: 'files',
          command: '/usr/bin/mcp-files',
          args: ['--root', dir],
          env: [{ name: 'FILES_TOKEN', value: 'secret-token-123' }],
        },
        {
          type: 'http',
          name: 'Docs Server',
          url: 'http://127.0.0.1:9/mcp',
          headers: [{ name: 'Authorization', value: 'Bearer abc' }],
        },
        { type: 'sse', name: 'files', url: 'http://127.0.0.1:9/sse', headers: [] },
      ],
    });
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'launch.json'), 'utf8'))).toEqual({
      mcp: {
        servers: {
          files: { command: '/usr/bin/mcp-files', args: ['--root', dir], env: { FILES_TOKEN: 'secret-token-123' } },
          'Docs-Server': { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer abc' } },
          'files-2': { url: 'http://127.0.0.1:9/sse', headers: {} },
        },
      },
    });
    const pod = (created._meta as { yoi: { pod: string } }).yoi.pod;
    const pid = Number(fs.readFileSync(path.join(dir, 'run', pod, 'pid'), 'utf8'));
    expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')).not.toContain('secret-token-123');
    expect(fs.readdirSync(path.join(dir, 'run')).filter((n) => n.startsWith('.acp-'))).toEqual([]);
    // This project has no MCP plugin: the editor is told its servers go unused.
    await ed.until(isChunk('include no MCP plugin (yoi:mcp)'));
    // Another editor on the same project attaches to the live pod: same pod, same session.
    const other = editor(dir, env);
    await other.conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const attached = await other.conn.newSession({ cwd: dir, mcpServers: [] });
    expect(attached).toEqual({ sessionId: created.sessionId, _meta: { yoi: { pod } } });
    expect(Number(fs.readFileSync(path.join(dir, 'run', pod, 'pid'), 'utf8'))).toBe(pid);
  }, 60_000);

  it('a real MCP server the editor passes runs in the pod: its tool is called, its prompts become commands; a configured name wins; a bad one costs an alert', async () => {
    const root = makeProject();
    const { dir, env } = acpProject(
      root,
      [
        {
          tool_calls: [
            { name: 'mcp__everything__echo', arguments: { message: 'from the editor' } },
            { name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 0.4, steps: 2 } },
          ],
        },
        { text: 'Echoed.' },
      ],
      { mcp: { servers: { tracker: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } } },
    );
    stopPodsAfter(dir, env);
    const ed = editor(dir, env);
    const init = await ed.conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
    const { sessionId, _meta } = await ed.conn.newSession({
      cwd: dir,
      mcpServers: [
        { name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], env: [] },
        { name: 'tracker', command: '/nonexistent/never-started', args: [], env: [] },
        { type: 'http', name: 'bad', url: 'ftp://127.0.0.1/mcp', headers: [] },
      ],
    });
    const pod = (_meta as { yoi: { pod: string } }).yoi.pod;
    const state = () => {
      try {
        return (
          JSON.parse(fs.readFileSync(path.join(env.YOI_RUNTIME_DIR!, pod, 'mcp.json'), 'utf8')) as {
            servers: { name: string; state: string }[];
          }
        ).servers;
      } catch {
        return []; // not written yet
      }
    };
    await eventually(
      () => state().some((s) => s.name === 'everything' && s.state === 'ready'),
      "the editor's server ready",
      40_000,
    );
    // The configured `tracker` is the one the pod runs, not the editor's command of that name.
    expect(
      state()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['everything', 'tracker']);
    await ed.until(isChunk('"tracker" of this launch ignored: the config has a server of that name'));
    await ed.until(isChunk('"bad" of this launch ignored'));

    const reply = await ed.conn.prompt({ sessionId, prompt: [{ type: 'text', text: 'echo something' }] });
    expect(reply.stopReason).toBe('end_turn');
    const updates = ed.updates.map((u) => u.update);
    const call = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress');
    expect(call).toMatchObject({ title: 'everything: echo', kind: 'other', rawInput: { message: 'from the editor' } });
    const done = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed') as {
      content: { content: { text: string } }[];
    };
    expect(done.content[0].content.text).toContain('from the editor');
    // The server's progress (tool_progress) shows in the long call's title.
    expect(
      updates.some(
        (u) =>
          u.sessionUpdate === 'tool_call_update' &&
          /^everything: trigger-long-running-operation \(1\/2/.test(u.title ?? ''),
      ),
    ).toBe(true);
    // The server's prompts join the editor's commands once it is ready (listed again after runs).
    const commands = await ed.until(
      (u) =>
        u.sessionUpdate === 'available_commands_update' &&
        u.availableCommands.some((c) => c.name === 'everything:simple-prompt'),
      30_000,
    );
    expect(commands).toMatchObject({
      availableCommands: expect.arrayContaining([expect.objectContaining({ name: 'everything:args-prompt' })]),
    });
  }, 90_000);

  it('pod start --mcp-servers refuses a file that is a link or writable by others, in one line', () => {
    const dir = makeProject({ 'servers.json': '{"a":{"command":"x"}}' });
    const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
    fs.symlinkSync(path.join(dir, 'servers.json'), path.join(dir, 'link.json'));
    const viaLink = yoi(['pod', 'start', '--mcp-servers', 'link.json'], { cwd: dir, env });
    expect(viaLink.status).not.toBe(0);
    expect(viaLink.stderr.trim()).toBe('yoi: --mcp-servers link.json: is a symbolic link [YOI_ERR_USAGE]');
    fs.chmodSync(path.join(dir, 'servers.json'), 0o666);
    const open = yoi(['pod', 'start', '--mcp-servers', 'servers.json'], { cwd: dir, env });
    expect(open.stderr.trim()).toBe('yoi: --mcp-servers servers.json: writable by others [YOI_ERR_USAGE]');
    fs.writeFileSync(path.join(dir, 'list.json'), '[]', { mode: 0o600 });
    expect(yoi(['pod', 'start', '--mcp-servers', 'list.json'], { cwd: dir, env }).stderr.trim()).toBe(
      'yoi: --mcp-servers list.json: expected a JSON object of servers by name [YOI_ERR_USAGE]',
    );
  });
});
