import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PodClient } from '../../../client/PodClient.js';
import type { Event } from '../../../core/protocol/index.js';
import { itemText, type HistoryItem } from '../../../core/history/HistoryItem.js';
import { McpStateFileSchema } from '../../../plugins/mcp/McpStateSchema.js';
import { recorder, runEnded, startTestPod, text, until, type TestPod } from '../../support/startTestPod.js';
import { eventually, everything, fixture, processAlive } from './mcpServers.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

type Reply = { text?: string; tool_calls?: { name: string; arguments: Record<string, unknown> }[] };

async function pod(servers: Record<string, unknown>, script: Reply[] = [], files: Record<string, string> = {}) {
  tp = await startTestPod({
    files: { 'script.json': JSON.stringify(script), ...files },
    config: { model: { provider: 'scripted', script: 'script.json' }, mcp: { servers } },
  });
  return tp;
}

const stateFile = (t: TestPod) => path.join(t.runtimeDir, t.pod.name, 'mcp.json');
const readState = (t: TestPod) => McpStateFileSchema.parse(JSON.parse(fs.readFileSync(stateFile(t), 'utf8')));
const serverState = (t: TestPod, name: string) => {
  try {
    return readState(t).servers.find((s) => s.name === name)?.state;
  } catch {
    return undefined; // between writes
  }
};
async function ready(t: TestPod, ...names: string[]) {
  await eventually(() => names.every((n) => serverState(t, n) === 'ready'), `${names.join(', ')} ready`);
}

async function run(c: PodClient, input: unknown[]): Promise<Event[]> {
  const events = recorder(c);
  const ended = runEnded(c, 60_000);
  await c.request({ method: 'run', params: { input: input as never } });
  await ended;
  return events;
}

async function historyOf(c: PodClient): Promise<{ role?: string; text: string }[]> {
  const reply = await c.request({ method: 'get_history' });
  const items = (reply as { data: { items: HistoryItem[] } }).data.items;
  return items.flatMap((i) => (i.type === 'message' ? [{ role: i.role, text: itemText(i) }] : []));
}

const results = (events: Event[]) =>
  events
    .filter((e) => e.event === 'tool_result')
    .map((e) => e.data as { summary: string; output?: string; is_error: boolean });

it('the scripted model calls server-everything tools through the pod: results, progress (v2 only), mcp.json', async () => {
  const t = await pod({ everything: everything() }, [
    {
      tool_calls: [
        { name: 'mcp__everything__echo', arguments: { message: 'through the pod' } },
        { name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 0.4, steps: 4 } },
      ],
    },
    { text: 'done' },
  ]);
  await ready(t, 'everything');
  const mode = fs.statSync(stateFile(t)).mode & 0o777;
  expect(mode).toBe(0o600);
  const state = readState(t).servers[0];
  expect(state.tools.length).toBeGreaterThan(5);

  const v2 = await t.connect(2);
  const v1 = await t.connect(1);
  const v1Events = recorder(v1);
  const events = await run(v2, [text('go')]);
  await until(v1Events, (e) => e.event === 'run_end');
  const [echo, long] = results(events);
  expect(echo).toMatchObject({
    summary: 'everything/echo: Echo: through the pod',
    output: 'Echo: through the pod',
    is_error: false,
  });
  expect(long).toMatchObject({ is_error: false, output: expect.stringContaining('Long running operation completed') });
  const progress = events.filter((e) => e.event === 'tool_progress');
  expect(progress.length).toBeGreaterThanOrEqual(1);
  const longId = (
    events.find((e) => e.event === 'tool_call_done' && e.data.name.endsWith('long-running-operation')) as {
      data: { id: string };
    }
  ).data.id;
  expect(progress[0].data).toEqual({ id: longId, progress: 1, total: 4 });
  expect(v1Events.some((e) => e.event === 'tool_progress')).toBe(false);
  await v1.close();
  await v2.close();

  // Stopping the pod ends the server process and removes the state file with the runtime dir.
  const pid = state.pid!;
  await t.stop();
  expect(processAlive(pid)).toBe(false);
  expect(fs.existsSync(stateFile(t))).toBe(false);
});

it('a slow server does not delay listening; the pod says when it becomes ready, and its tools join the next request', async () => {
  const gate = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-mcp-')), 'go');
  const t = await pod({ slow: fixture('--wait-for', gate) }, [
    { text: 'first' },
    { tool_calls: [{ name: 'mcp__slow__echo', arguments: { text: 'late' } }] },
    { text: 'second' },
  ]);
  // The pod listens while the server still waits.
  expect(serverState(t, 'slow')).toBe('starting');
  const c = await t.connect();
  const events = recorder(c);
  await run(c, [text('one')]);
  fs.writeFileSync(gate, '');
  const alert = await until(events, (e) => e.event === 'alert' && e.data.message.includes('slow is ready now'), 30_000);
  expect(alert.data).toMatchObject({ level: 'warn' });
  const second = await run(c, [text('two')]);
  expect(results(second)[0]).toMatchObject({ output: 'echo: late', is_error: false });
  fs.rmSync(path.dirname(gate), { recursive: true, force: true });
  await c.close();
});

it('faults cost an alert and an is_error result, never the pod: crash mid-call, then the restarted server answers', async () => {
  const t = await pod({ fx: fixture() }, [
    { tool_calls: [{ name: 'mcp__fx__crash', arguments: {} }] },
    { text: 'after the crash' },
    { tool_calls: [{ name: 'mcp__fx__echo', arguments: { text: 'again' } }] },
    { text: 'fine' },
  ]);
  await ready(t, 'fx');
  const c = await t.connect();
  const all = recorder(c);
  const first = await run(c, [text('crash it')]);
  expect(results(first)[0]).toMatchObject({ is_error: true, summary: expect.stringMatching(/^fx\/crash failed/) });
  await until(all, (e) => e.event === 'alert' && e.data.message.includes('fx exited unexpectedly'));
  await eventually(() => serverState(t, 'fx') === 'ready' && readState(t).servers[0].restarts === 1, 'the restart');
  const second = await run(c, [text('again')]);
  expect(results(second)[0]).toMatchObject({ is_error: false, output: 'echo: again' });
  await c.close();
});

it('tools/list_changed during a run: the tool added by one call is offered to the next LLM request', async () => {
  const t = await pod({ fx: fixture() }, [
    { tool_calls: [{ name: 'mcp__fx__add_tool', arguments: { name: 'cube' } }] },
    { tool_calls: [{ name: 'mcp__fx__cube', arguments: { n: 3 } }] },
    { text: 'done' },
  ]);
  await ready(t, 'fx');
  const c = await t.connect();
  const events = await run(c, [text('grow')]);
  const [added, cube] = results(events);
  expect(added.output).toBe('added cube');
  expect(cube).toMatchObject({ is_error: false, output: 'cube(3)' });
  await eventually(() => readState(t).servers[0].tools.some((tool) => tool.name === 'cube'), 'cube listed in mcp.json');
  await c.close();
});

it('mcp_resource segments: {server, uri} and ref forms, binary summarised, size cut, bad refs fall back and the pod keeps running', async () => {
  const t = await pod({ fx: fixture() }, [], {});
  await ready(t, 'fx');
  const c = await t.connect();
  const events = await run(c, [
    text('read these'),
    { kind: 'mcp_resource', server: 'fx', uri: 'fixture://notes' },
    { kind: 'mcp_resource', ref: 'fx:fixture://logo.png' },
    { kind: 'mcp_resource', ref: 'fx:fixture://big' },
    { kind: 'mcp_resource', ref: 'nope:fixture://notes' },
    { kind: 'mcp_resource', ref: 'no-colon' },
  ]);
  const items = await historyOf(c);
  const systemTexts = items.filter((i) => i.role === 'system').map((i) => i.text);
  expect(systemTexts).toContain('[Resource: fx:fixture://notes]\nnote one\nnote two');
  expect(systemTexts.find((s) => s.startsWith('[Resource: fx:fixture://logo.png]'))).toMatch(
    /binary resource fixture:\/\/logo\.png: image\/png, 300 bytes, not shown/,
  );
  const big = systemTexts.find((s) => s.startsWith('[Resource: fx:fixture://big]'))!;
  expect(Buffer.byteLength(big)).toBeLessThan(300 * 1024);
  expect(big).toMatch(/cut: \d+ more bytes/);
  const alerts = events.filter((e) => e.event === 'alert').map((e) => e.data.message);
  expect(alerts.some((a) => a.includes('was cut to'))).toBe(true);
  expect(alerts.some((a) => a.includes('no MCP server "nope" is configured (configured: fx)'))).toBe(true);
  expect(alerts.some((a) => a.includes('malformed mcp_resource ref'))).toBe(true);
  const user = items.find((i) => i.role === 'user')!;
  expect(user.text).toContain('[unresolved mcp_resource: nope:fixture://notes]');
  expect(c.welcome?.segment_kinds).toContain('mcp_resource');
  // Still running: another run works.
  await run(c, [text('still here')]);
  await c.close();
});

it('completions list resources, templates and prompts', async () => {
  const t = await pod({ everything: everything(), fx: fixture() });
  await ready(t, 'everything', 'fx');
  const c = await t.connect();
  const res = await c.request({ method: 'list_completions', params: { kind: 'mcp_resource', prefix: 'fx:' } });
  expect((res as { data: { items: string[] } }).data.items.sort()).toEqual([
    'fx:fixture://big',
    'fx:fixture://logo.png',
    'fx:fixture://notes',
  ]);
  const templates = await c.request({
    method: 'list_completions',
    params: { kind: 'mcp_resource', prefix: 'everything:demo://resource/dynamic' },
  });
  expect((templates as { data: { items: string[] } }).data.items).toContain(
    'everything:demo://resource/dynamic/text/{resourceId}',
  );
  const prompts = await c.request({ method: 'list_completions', params: { kind: '/', prefix: 'every' } });
  expect((prompts as { data: { items: string[] } }).data.items).toEqual(
    expect.arrayContaining(['everything:simple-prompt', 'everything:args-prompt']),
  );
  await c.close();
});

it('prompts as workflows: /<server>:<prompt> with key=value arguments; other slugs go to yoi:workflow', async () => {
  const t = await pod({ everything: everything(), fx: fixture() }, [], {
    '.yoi/workflows/plain.md': 'Plain workflow body.',
  });
  await ready(t, 'everything', 'fx');
  const c = await t.connect();
  const events = await run(c, [
    { kind: 'workflow_invoke', slug: 'fx:greet' },
    text('name=Ann mood="very happy" and then more'),
  ]);
  const items = await historyOf(c);
  expect(
    items.some(
      (i) => i.role === 'system' && i.text === '[Prompt: fx:greet]\n[user] Say hello to Ann in a very happy way.',
    ),
  ).toBe(true);
  expect(events.filter((e) => e.event === 'alert')).toEqual([]);

  const args = await run(c, [{ kind: 'workflow_invoke', slug: 'everything:args-prompt' }, text('city=Paris')]);
  expect(args.filter((e) => e.event === 'alert')).toEqual([]);

  const missing = await run(c, [{ kind: 'workflow_invoke', slug: 'fx:greet' }, text('hello')]);
  expect(missing.find((e) => e.event === 'alert')?.data).toMatchObject({
    message: expect.stringContaining('prompt /fx:greet needs name=… after it'),
  });
  const unknown = await run(c, [{ kind: 'workflow_invoke', slug: 'fx:nothing' }]);
  expect(unknown.find((e) => e.event === 'alert')?.data).toMatchObject({
    message: expect.stringContaining('has no prompt "nothing" (it has: greet)'),
  });

  // A plain slug is declined by the MCP plugin and resolved by yoi:workflow.
  const plain = await run(c, [{ kind: 'workflow_invoke', slug: 'plain' }, text('go')]);
  expect(plain.filter((e) => e.event === 'alert')).toEqual([]);
  await c.close();
});

it('shutdown leaves no process behind (checked in /proc), including a grandchild', async () => {
  const dir = fs.mkdtempSync(path.join('/tmp', 'yoi-mcp-'));
  const pidFile = path.join(dir, 'pids');
  const t = await pod({ fx: fixture('--spawn-child', '--pid-file', pidFile), everything: everything() });
  await ready(t, 'fx', 'everything');
  const pids = [
    ...fs.readFileSync(pidFile, 'utf8').split('\n').map(Number),
    readState(t).servers.find((s) => s.name === 'everything')!.pid!,
  ];
  for (const pid of pids) expect(processAlive(pid)).toBe(true);
  await t.stop();
  await eventually(() => pids.every((pid) => !processAlive(pid)), 'every server process to end');
});

it('without servers the plugin describes none; calls to unknown or ill-formed MCP tools are is_error results and the pod goes on', async () => {
  const t = await pod({ fx: fixture() }, [
    {
      tool_calls: [
        { name: 'mcp__nobody__thing', arguments: {} },
        { name: 'mcp__fx__echo', arguments: { wrong: 1 } },
      ],
    },
    { text: 'ok' },
  ]);
  await ready(t, 'fx');
  const c = await t.connect();
  const [unknown, invalid] = results(await run(c, [text('try')]));
  expect(unknown).toMatchObject({ summary: "Tool 'mcp__nobody__thing' not found", is_error: true });
  // The server validates against its own schema and says what is wrong.
  expect(invalid).toMatchObject({ is_error: true, summary: expect.stringMatching(/^fx\/echo failed: .*text/) });
  await run(c, [text('still running')]);
  await c.close();
  await t.stop();

  const empty = await pod({});
  expect(readState(empty)).toMatchObject({ pod_name: 'test', servers: [] });
});
