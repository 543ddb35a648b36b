import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { McpConfigSchema } from '../../../plugins/mcp/McpConfigSchema.js';
import { McpManager } from '../../../plugins/mcp/McpManager.js';
import { McpStateFileSchema } from '../../../plugins/mcp/McpStateSchema.js';
import type { Tool } from '../../../core/tools/Tool.js';
import {
  eventually,
  everything,
  FILESYSTEM,
  fixture,
  newManager,
  NODE,
  processAlive,
  toolCtx,
  startHttpServer,
} from './mcpServers.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function manager(servers: Record<string, unknown>) {
  const made = newManager(servers);
  cleanups.push(() => made.m.close());
  return made;
}

const ctx = toolCtx;

const tool = (m: McpManager, name: string): Tool => {
  const found = m.podTools().find((t) => t.name === name);
  if (!found)
    throw new Error(
      `no tool ${name} among ${m
        .podTools()
        .map((t) => t.name)
        .join(', ')}`,
    );
  return found;
};

describe('server-everything (a real process)', () => {
  it('lists tools, resources, templates and prompts; calls report progress; images are summarised; close ends the process', async () => {
    const { m } = manager({ everything: everything() });
    await m.start();
    const state = McpStateFileSchema.parse(m.describe());
    const s = state.servers[0];
    expect(s).toMatchObject({ name: 'everything', state: 'ready', transport: 'stdio', restarts: 0 });
    expect(s.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation', 'get-tiny-image']),
    );
    expect(s.tools.find((t) => t.name === 'echo')?.pod_tool).toBe('mcp__everything__echo');
    expect(s.resources.length).toBeGreaterThan(0);
    expect(s.resource_templates.map((t) => t.uri_template)).toContain('demo://resource/dynamic/text/{resourceId}');
    expect(s.prompts.find((p) => p.name === 'args-prompt')?.arguments).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'city', required: true })]),
    );

    const echo = tool(m, 'mcp__everything__echo');
    expect(echo.inputJsonSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
    expect(await echo.execute({ message: 'hi' }, ctx())).toEqual({
      summary: 'everything/echo: Echo: hi',
      content: 'Echo: hi',
    });

    const progress: unknown[] = [];
    const long = await tool(m, 'mcp__everything__trigger-long-running-operation').execute(
      { duration: 0.3, steps: 3 },
      ctx({ progress: (p) => progress.push(p) }),
    );
    expect(long.is_error).toBeUndefined();
    // The SDK hands notifications on asynchronously and drops the handler with the response, so the
    // last report may race the result; the earlier ones arrive in order.
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress).toEqual(
      [
        { progress: 1, total: 3 },
        { progress: 2, total: 3 },
        { progress: 3, total: 3 },
      ].slice(0, progress.length),
    );

    const image = await tool(m, 'mcp__everything__get-tiny-image').execute({}, ctx());
    expect(image.content).toMatch(/\[image: image\/png, \d+ bytes, not shown\]/);

    const bad = await tool(m, 'mcp__everything__get-sum').execute({ a: 'x' }, ctx());
    expect(bad.is_error).toBe(true);
    expect(bad.summary).toMatch(/^everything\/get-sum failed: /);

    const pid = s.pid!;
    expect(processAlive(pid)).toBe(true);
    await m.close();
    expect(processAlive(pid)).toBe(false);
  });

  it('a cancelled call ends at once with the run (the SDK sends notifications/cancelled)', async () => {
    const { m } = manager({ everything: everything() });
    await m.start();
    const abort = new AbortController();
    const call = tool(m, 'mcp__everything__trigger-long-running-operation').execute(
      { duration: 60, steps: 600 },
      ctx({ signal: abort.signal, progress: () => abort.abort() }),
    );
    await expect(call).rejects.toThrow();
    // The server still answers afterwards.
    expect((await tool(m, 'mcp__everything__echo').execute({ message: 'still here' }, ctx())).content).toBe(
      'Echo: still here',
    );
  });

  it('resources/list_changed (a session resource added by gzip-file-as-resource) updates the resources', async () => {
    const { m } = manager({ everything: everything() });
    await m.start();
    const conn = m.servers.get('everything')!;
    const before = conn.resources.length;
    const data = `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`;
    const out = await tool(m, 'mcp__everything__gzip-file-as-resource').execute({ name: 'greeting.gz', data }, ctx());
    expect(out.is_error).toBeUndefined();
    await eventually(() => conn.resources.length > before, 'the new session resource');
    expect(conn.resources.map((r) => r.uri)).toContain('demo://resource/session/greeting.gz');
  });
});

it('server-filesystem reads a file through its pod tool', async () => {
  const { m, dir } = manager({});
  fs.writeFileSync(path.join(dir, 'hello.txt'), 'hello from disk\n');
  const fsm = manager({ files: { command: NODE, args: [FILESYSTEM, dir] } }).m;
  await fsm.start();
  const out = await tool(fsm, 'mcp__files__read_text_file').execute({ path: path.join(dir, 'hello.txt') }, ctx());
  expect(out.content).toContain('hello from disk');
  const outside = await tool(fsm, 'mcp__files__read_text_file').execute({ path: '/etc/hostname' }, ctx());
  expect(outside.is_error).toBe(true);
  void m;
});

describe('HTTP servers', () => {
  it('speaks streamable HTTP to a URL, with headers from the environment', async () => {
    const http = await startHttpServer(['--require-header', 'x-token=s3cret']);
    cleanups.push(() => http.stop());
    process.env.YOI_TEST_MCP_TOKEN = 's3cret';
    cleanups.push(() => delete process.env.YOI_TEST_MCP_TOKEN);
    const { m } = manager({ remote: { url: http.url, headersEnv: { 'x-token': 'YOI_TEST_MCP_TOKEN' } } });
    await m.start();
    expect(m.describe().servers[0]).toMatchObject({
      state: 'ready',
      transport: 'streamable-http',
      server: { name: 'http-fixture' },
    });
    expect((await tool(m, 'mcp__remote__add').execute({ a: 2, b: 3 }, ctx())).content).toBe('5');
  });

  it('falls back to HTTP+SSE when the server has no streamable endpoint', async () => {
    const http = await startHttpServer(['--sse-only']);
    cleanups.push(() => http.stop());
    const { m } = manager({ old: { url: http.url } });
    await m.start();
    expect(m.describe().servers[0]).toMatchObject({ state: 'ready', transport: 'sse' });
    expect((await tool(m, 'mcp__old__whoami').execute({}, ctx())).content).toBe('sse');
  });

  it('a missing header variable fails that server with one line', async () => {
    const { m, alerts } = manager({
      remote: { url: 'http://127.0.0.1:9/mcp', headersEnv: { authorization: 'YOI_TEST_UNSET_VARIABLE' } },
    });
    await m.start();
    expect(m.describe().servers[0]).toMatchObject({
      state: 'failed',
      last_error: expect.stringContaining('YOI_TEST_UNSET_VARIABLE is not set'),
    });
    expect(alerts).toHaveLength(1);
  });
});

describe('faults', () => {
  it('a server that fails to start costs one alert naming its error; the others start', async () => {
    const { m, alerts } = manager({
      broken: fixture('--exit-at-start'),
      missing: { command: '/nonexistent/mcp-server' },
      good: fixture(),
    });
    await m.start();
    const states = Object.fromEntries(m.describe().servers.map((s) => [s.name, s]));
    expect(states.broken).toMatchObject({
      state: 'failed',
      last_error: expect.stringContaining('fixture server refuses to start'),
    });
    expect(states.missing).toMatchObject({ state: 'failed', last_error: expect.stringContaining('ENOENT') });
    expect(states.good.state).toBe('ready');
    expect(alerts.filter((a) => a.includes('broken'))).toHaveLength(1);
    expect(alerts.filter((a) => a.includes('missing'))).toHaveLength(1);
    expect(m.podTools().every((t) => t.name.startsWith('mcp__good__'))).toBe(true);
  });

  it('a crash mid-call is an is_error result; the server restarts and answers again', async () => {
    const { m, alerts } = manager({ fx: fixture() });
    await m.start();
    const conn = m.servers.get('fx')!;
    const firstPid = conn.pid;
    const out = await tool(m, 'mcp__fx__crash').execute({}, ctx());
    expect(out.is_error).toBe(true);
    expect(out.summary).toMatch(/^fx\/crash failed: /);
    await eventually(() => conn.state === 'ready' && conn.restarts === 1, 'the restart');
    expect(conn.pid).not.toBe(firstPid);
    expect(processAlive(firstPid!)).toBe(false);
    expect(
      alerts.some((a) => /fx exited unexpectedly \(stderr: Error: crashing on purpose\); restarting in \d+ ms/.test(a)),
    ).toBe(true);
    expect((await tool(m, 'mcp__fx__echo').execute({ text: 'back' }, ctx())).content).toBe('echo: back');
  });

  it('a message over 10 MiB ends the call in an is_error result; the alert says why, and the server restarts', async () => {
    const { m, alerts } = manager({ fx: { ...fixture(), timeoutMs: 30_000 } });
    await m.start();
    const conn = m.servers.get('fx')!;
    const out = await tool(m, 'mcp__fx__flood').execute({}, ctx());
    expect(out.is_error).toBe(true);
    await eventually(() => conn.state === 'ready' && conn.restarts === 1, 'the restart');
    expect(alerts.filter((a) => a.startsWith('MCP server fx'))).toEqual([
      expect.stringMatching(/^MCP server fx sent a message over 10 MiB .*; restarting in \d+ ms/),
      expect.stringMatching(/^MCP server fx is ready again after a restart/),
    ]);
    expect((await tool(m, 'mcp__fx__echo').execute({ text: 'back' }, ctx())).content).toBe('echo: back');
  });

  it('progress that arrives after its call ended is ignored: no alert, no error', async () => {
    const { m, alerts } = manager({ fx: fixture() });
    await m.start();
    const seen: unknown[] = [];
    const out = await tool(m, 'mcp__fx__late_progress').execute({}, ctx({ progress: (p) => seen.push(p) }));
    expect(out.content).toBe('done early');
    // The stray notifications were written before the next call's answer.
    expect((await tool(m, 'mcp__fx__echo').execute({ text: 'after' }, ctx())).content).toBe('echo: after');
    expect(seen).toEqual([]);
    expect(alerts.filter((a) => a.startsWith('MCP server fx'))).toEqual([]);
    expect(m.describe().servers[0].last_error).toBeUndefined();
    expect(m.servers.get('fx')!.state).toBe('ready');
  });

  it('restarts are bounded: a server that keeps crashing ends failed', async () => {
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-mcp-')), 'started');
    // Exits at once on every restart (the marker exists after the first start).
    const script =
      `const fs=require('fs');if(fs.existsSync(${JSON.stringify(marker)}))process.exit(2);fs.writeFileSync(${JSON.stringify(marker)},'');` +
      `process.stdin.on('data',d=>{for(const l of String(d).split('\\n').filter(Boolean)){const m=JSON.parse(l);if(m.method==='initialize')process.stdout.write(JSON.stringify({jsonrpc:'2.0',id:m.id,result:{protocolVersion:m.params.protocolVersion,capabilities:{},serverInfo:{name:'x',version:'1'}}})+'\\n');else if(m.id!==undefined)process.exit(1)}})`;
    const { m, alerts } = manager({ flaky: { command: NODE, args: ['-e', script] } });
    await m.start();
    const conn = m.servers.get('flaky')!;
    expect(conn.state).toBe('ready');
    conn.readResource('x://y', new AbortController().signal).catch(() => undefined); // makes it exit
    await eventually(() => conn.state === 'failed', 'giving up', 60_000);
    expect(conn.restarts).toBe(5);
    expect(alerts.at(-1)).toMatch(/gave up after 5 restarts in a row/);
  }, 90_000);

  it('a hanging call times out as an is_error result; cancelling one ends it at once', async () => {
    const { m } = manager({ fx: { ...fixture(), timeoutMs: 4000 } });
    await m.start();
    const out = await tool(m, 'mcp__fx__hang').execute({}, ctx());
    expect(out).toMatchObject({ is_error: true, summary: expect.stringMatching(/fx\/hang failed: .*timed out/i) });
    const abort = new AbortController();
    const call = tool(m, 'mcp__fx__hang').execute({}, ctx({ signal: abort.signal }));
    abort.abort();
    await expect(call).rejects.toThrow();
    expect(m.servers.get('fx')!.state).toBe('ready');
  });

  it('a malformed message costs one alert; the call still gets its answer', async () => {
    const { m, alerts } = manager({ fx: fixture() });
    await m.start();
    for (let i = 0; i < 3; i++)
      expect((await tool(m, 'mcp__fx__garbage').execute({}, ctx())).content).toBe('after garbage');
    expect(alerts.filter((a) => a.startsWith('MCP server fx:'))).toHaveLength(1);
    expect(m.describe().servers[0].last_error).toBeDefined();
  });
});

it('what a server puts before the model is bounded: long descriptions are cut, huge schemas become "an object"', async () => {
  const { m } = manager({ fx: fixture() });
  await m.start();
  const verbose = tool(m, 'mcp__fx__verbose');
  expect(verbose.description.length).toBeLessThanOrEqual(4097);
  expect(verbose.inputJsonSchema).toEqual({ type: 'object', additionalProperties: true });
  expect(tool(m, 'mcp__fx__echo').inputJsonSchema).toMatchObject({
    properties: { text: { type: 'string' } },
    required: ['text'],
  });
  expect((await verbose.execute({ field_1: 'a' }, ctx())).content).toBe('ok');
});

it('tools/list_changed: a tool added at run time is offered next', async () => {
  const { m } = manager({ fx: fixture() });
  await m.start();
  expect(m.podTools().map((t) => t.name)).not.toContain('mcp__fx__square');
  await tool(m, 'mcp__fx__add_tool').execute({ name: 'square' }, ctx());
  await eventually(() => m.podTools().some((t) => t.name === 'mcp__fx__square'), 'the new tool');
  expect((await tool(m, 'mcp__fx__square').execute({ n: 4 }, ctx())).content).toBe('square(4)');
});

it('tools: {allow, deny} choose what the pod offers; a disabled server is never started', async () => {
  const { m } = manager({
    fx: { ...fixture(), tools: { allow: ['e*', 'fail', 'garbage'], deny: ['garbage'] } },
    off: { ...fixture(), enabled: false },
  });
  await m.start();
  expect(
    m
      .podTools()
      .map((t) => t.name)
      .sort(),
  ).toEqual(['mcp__fx__echo', 'mcp__fx__fail']);
  const described = m.describe().servers;
  expect(described.find((s) => s.name === 'fx')!.tools.find((t) => t.name === 'crash')?.pod_tool).toBeUndefined();
  expect(described.find((s) => s.name === 'off')).toMatchObject({ state: 'disabled', tools: [] });
  expect(await tool(m, 'mcp__fx__fail').execute({}, ctx())).toEqual({
    summary: 'fx/fail failed: it went wrong',
    content: 'it went wrong',
    is_error: true,
  });
});

it('close leaves no process behind, not even a grandchild that ignores stdin EOF', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-mcp-'));
  const pidFile = path.join(dir, 'pids');
  const { m } = manager({ fx: fixture('--spawn-child', '--pid-file', pidFile) });
  await m.start();
  const pids = fs.readFileSync(pidFile, 'utf8').split('\n').map(Number);
  expect(pids).toHaveLength(2);
  for (const pid of pids) expect(processAlive(pid)).toBe(true);
  await m.close();
  await eventually(() => pids.every((pid) => !processAlive(pid)), 'every process to end');
});

it('close ends a server that is still starting', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-mcp-'));
  const pidFile = path.join(dir, 'pids');
  const { m } = manager({ slow: fixture('--pid-file', pidFile, '--wait-for', path.join(dir, 'never')) });
  const started = m.start();
  await eventually(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '', 'the server process');
  const [pid] = fs.readFileSync(pidFile, 'utf8').split('\n').map(Number);
  expect(m.describe().servers[0].state).toBe('starting');
  await m.close();
  await started;
  await eventually(() => !processAlive(pid), 'the starting server to end');
});

it('rejects bad config with the key path', () => {
  expect(McpConfigSchema.safeParse({ servers: { 'a:b': { command: 'x' } } }).success).toBe(false);
  expect(McpConfigSchema.safeParse({ servers: { a__b: { command: 'x' } } }).success).toBe(false);
  expect(McpConfigSchema.safeParse({ servers: { a: { command: 'x', url: 'http://x' } } }).success).toBe(false);
  expect(McpConfigSchema.safeParse({ servers: { a: { url: 'ftp://x' } } }).success).toBe(false);
  expect(McpConfigSchema.parse({}).servers).toEqual({});
});
