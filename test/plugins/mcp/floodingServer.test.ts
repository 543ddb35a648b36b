// A stdio MCP server that floods the pod must cost it bounded memory, requests and CPU: repeated
// `list_changed` coalesce into one listing at a time, at most one a second, which a tool's result
// waits for only briefly; a server that stops reading what the pod writes to it is closed (and
// started again) once 10 MiB or 10,000 messages wait for it, and one sending more than 2,000
// notifications in a second is closed and started again too.
import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually, FLOODING, newManager, NODE, startHttpServer, toolCtx } from './mcpServers.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function scratch(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-mcp-flood-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function manager(args: string[], timeoutMs?: number) {
  const made = newManager({ fl: { command: NODE, args: [FLOODING, ...args], ...(timeoutMs ? { timeoutMs } : {}) } });
  cleanups.push(() => made.m.close());
  return made;
}

it('1,000 tools/list_changed in a row: one listing at a time, one more after it, and the new list is offered', async () => {
  const log = path.join(scratch(), 'log');
  const { m } = manager(['list-changed', log]);
  await m.start();
  const methods = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
  // The pod answers the server's ping after it has handled every notification before it.
  await eventually(() => methods().includes('answer barrier'), 'the answer to the ping after the notifications');
  const lists = () => methods().filter((x) => x === 'tools/list').length;
  expect(lists()).toBe(2); // the first listing, and one for all 1,000 notifications
  fs.writeFileSync(`${log}.answer`, '');
  await eventually(() => m.podTools().some((t) => t.name === 'mcp__fl__added'), 'the new tool');
  await eventually(
    () => m.servers.get('fl')!.state === 'ready' && lists() === 3,
    'the one listing asked for meanwhile',
  );
  expect(m.servers.get('fl')!.restarts).toBe(0);
}, 30_000);

it('a server that stops reading while the pod answers its requests is closed at 10,000 messages waiting, said so, and restarted', async () => {
  const marker = path.join(scratch(), 'started');
  const { m, alerts } = manager(['unread', marker]);
  await m.start();
  const conn = m.servers.get('fl')!;
  await eventually(() => conn.restarts === 1 && conn.state === 'ready', 'the restart', 60_000);
  expect(alerts.filter((a) => a.startsWith('MCP server fl'))).toEqual([
    expect.stringMatching(
      /^MCP server fl stopped reading what the pod sends it \(10 MiB or 10,000 messages waiting\); restarting in \d+ ms/,
    ),
    expect.stringMatching(/^MCP server fl is ready again after a restart/),
  ]);
  const echo = m.podTools().find((t) => t.name === 'mcp__fl__echo')!;
  expect((await echo.execute({ text: 'back' }, toolCtx())).content).toBe('echo: back');
}, 90_000);

it('a server announcing a change before every listing: one listing a second, and a tool result does not wait for them', async () => {
  const log = path.join(scratch(), 'log');
  // A result used to wait for the listings until the call's own timeout (22 s in the replayed
  // attack); this one is far beyond the test's.
  const { m } = manager(['relist', log], 600_000);
  await m.start();
  const starts = () =>
    fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((l) => Number(l.split(' ')[1]))
      : [];
  await eventually(() => starts().length >= 6, 'five listings after the first');
  // The pod waits a second from one listing's start to the next; only how late the server read
  // the first request may shorten what it sees (the first listing is the pod's start, not a refresh).
  const [, first, , , , fifth] = starts();
  expect(fifth - first).toBeGreaterThanOrEqual(3000);
  const echo = m.podTools().find((t) => t.name === 'mcp__fl__echo')!;
  for (const text of ['one', 'two', 'three'])
    expect((await echo.execute({ text }, toolCtx())).content).toBe(`echo: ${text}`);
  expect(m.servers.get('fl')!.restarts).toBe(0);
}, 60_000);

it('a server flooding notifications is closed past 2,000 in a second, said so, and restarted', async () => {
  const { m, alerts } = manager(['notify-flood']);
  await m.start();
  const conn = m.servers.get('fl')!;
  await eventually(() => conn.restarts >= 1, 'the restart', 30_000);
  expect(alerts[0]).toMatch(
    /^MCP server fl sent more than 2,000 notifications in a second; restarting in \d+ ms \(restart 1 of at most 5 in a row\)$/,
  );
}, 60_000);

it('over HTTP too: a server flooding its event stream with notifications is closed, said so, and connected again', async () => {
  const server = await startHttpServer(['--notify-flood']);
  cleanups.push(() => server.stop());
  const { m, alerts } = newManager({ h: { url: server.url } });
  cleanups.push(() => m.close());
  await m.start();
  const conn = m.servers.get('h')!;
  await eventually(() => conn.restarts >= 1, 'the reconnection', 30_000);
  expect(alerts[0]).toMatch(/^MCP server h sent more than 2,000 notifications in a second; restarting in \d+ ms/);
}, 60_000);
