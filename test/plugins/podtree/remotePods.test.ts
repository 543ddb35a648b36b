import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import type { PodClient } from '../../../client/PodClient.js';
import type { Event } from '../../../core/protocol/index.js';
import { recorder, runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';
import { startWsPod, type WsTestPod } from '../../support/wsPod.js';

/**
 * The pod tools on a pod elsewhere, addressed by a WebSocket URL: a real pod listening on ws://
 * with a bearer token, and a parent pod whose scripted model calls SendToPod, ReadPodOutput,
 * ListPods and StopPod on it. Only the remotes of the parent's config (`podtree.remotes`) are
 * reached, each with the token from the environment variable it names; the token is never in a
 * tool's arguments, its result or the session log.
 */
const TOKEN_ENV = 'YOI_TEST_REMOTE_POD_TOKEN';
const UNSET_ENV = 'YOI_TEST_REMOTE_POD_TOKEN_UNSET';
const TOKEN = 'remote-pod-token-0123456789abcdef';
const WRONG_ENV = 'YOI_TEST_REMOTE_POD_TOKEN_WRONG';
const WRONG_TOKEN = 'not-the-remote-pod-token-0123456789';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type ToolResult = { summary: string; is_error: boolean; output?: string };

/** Runs one parent turn and returns the results of the tools it called. */
async function turn(client: PodClient, events: Event[], input: string): Promise<ToolResult[]> {
  const from = events.length;
  const ended = runEnded(client, 60_000);
  await client.request({ method: 'run', params: { input: [text(input)] } });
  expect(await ended).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
  return events.slice(from).flatMap((e) => {
    if (e.event !== 'tool_result') return [];
    const { summary, is_error, output } = e.data as unknown as ToolResult;
    return [{ summary, is_error, ...(output !== undefined ? { output } : {}) }];
  });
}

async function remoteAndParent(
  script: (url: string) => unknown[],
  more: (url: string) => Record<string, unknown> = () => ({}),
): Promise<{ remote: WsTestPod; parent: TestPod; client: PodClient; events: Event[] }> {
  process.env[TOKEN_ENV] = TOKEN;
  delete process.env[UNSET_ENV];
  cleanups.push(() => delete process.env[TOKEN_ENV]);
  const remote = await startWsPod({
    name: 'reviewer',
    tokenEnv: TOKEN_ENV,
    files: { 'r.json': JSON.stringify([{ text: 'review: looks good' }]) },
    config: { model: { provider: 'scripted', script: 'r.json' } },
  });
  cleanups.push(() => remote.stop());
  const parent = await startTestPod({
    name: 'lead',
    files: { 's.json': JSON.stringify(script(remote.url)) },
    config: {
      model: { provider: 'scripted', script: 's.json' },
      podtree: {
        remotes: {
          rev: { url: remote.url, tokenEnv: TOKEN_ENV },
          ghost: { url: 'ws://127.0.0.1:9', tokenEnv: UNSET_ENV },
          ...more(remote.url),
        },
      },
    },
  });
  cleanups.push(() => parent.stop());
  const client = await parent.connect();
  cleanups.push(() => client.close());
  return { remote, parent, client, events: recorder(client) };
}

describe('pod tools on a remote pod (ws:// URL, token from the environment)', () => {
  it('SendToPod, ReadPodOutput, ListPods and StopPod reach the remote by name and by URL', async () => {
    const {
      remote,
      parent,
      client: c,
      events: seen,
    } = await remoteAndParent((url) => [
      { tool_calls: [{ name: 'SendToPod', arguments: { name: 'rev', message: 'review the patch' } }] },
      { text: 'sent' },
      { tool_calls: [{ name: 'ReadPodOutput', arguments: { name: url } }] },
      { text: 'read' },
      {
        tool_calls: [
          { name: 'ReadPodOutput', arguments: { name: 'rev' } },
          { name: 'ListPods', arguments: {} },
        ],
      },
      { text: 'listed' },
      { tool_calls: [{ name: 'StopPod', arguments: { name: `${url}/` } }] },
      { text: 'stopped' },
    ]);
    const { url } = remote;

    const watcher = await remote.connectWs();
    cleanups.push(() => watcher.close());
    const remoteDone = runEnded(watcher, 60_000);
    expect(await turn(c, seen, 'delegate')).toEqual([{ summary: 'sent message to `rev`', is_error: false }]);
    expect(await remoteDone).toMatchObject({ event: 'run_end', data: { result: 'finished' } });

    const [read] = await turn(c, seen, 'read it');
    expect(read).toMatchObject({
      summary: `pod \`${url}\` is idle: 1 new assistant message`,
      is_error: false,
      output: 'review: looks good',
    });

    const [again2, listed] = await turn(c, seen, 'read again, list');
    expect(again2).toMatchObject({ summary: 'pod `rev` is idle; no new assistant text', is_error: false });
    expect(listed.summary).toBe('0 pods known, 2 remote pods configured');
    expect(listed.output?.split('\n')).toEqual([
      `rev [alive] remote ${url} (pod reviewer, idle)`,
      expect.stringMatching(
        new RegExp(`^ghost \\[unreachable\\] remote ws://127\\.0\\.0\\.1:9 \\(.*${UNSET_ENV}.*is not set`),
      ),
    ]);

    const [stopped] = await turn(c, seen, 'stop it');
    expect(stopped).toEqual({ summary: `stopped remote pod \`rev\` (${url})`, is_error: false });
    await remote.pod.closed;

    // The token went nowhere the model or the log can see.
    const logs = fs
      .readdirSync(path.join(parent.dir, '.yoi', 'sessions'))
      .map((f) => fs.readFileSync(path.join(parent.dir, '.yoi', 'sessions', f), 'utf8'));
    expect(logs.length).toBeGreaterThan(0);
    for (const log of logs) expect(log.includes(TOKEN)).toBe(false);
    expect(JSON.stringify(seen).includes(TOKEN)).toBe(false);
  }, 120_000);

  it('refuses a URL not in the config, a remote whose token variable is unset and a wrong token, in one line each; the pod keeps running', async () => {
    const { remote, client, events } = await remoteAndParent(
      () => [
        { tool_calls: [{ name: 'SendToPod', arguments: { name: 'ws://127.0.0.1:1', message: 'hello?' } }] },
        { text: 'refused' },
        {
          tool_calls: [
            { name: 'SendToPod', arguments: { name: 'ghost', message: 'hello?' } },
            { name: 'StopPod', arguments: { name: 'ws://ghost.example:80' } },
          ],
        },
        { text: 'refused again' },
        {
          tool_calls: [
            { name: 'ReadPodOutput', arguments: { name: 'nobody' } },
            { name: 'SendToPod', arguments: { name: 'bad', message: 'hello?' } },
          ],
        },
        { text: 'still here' },
      ],
      (url) => ({ bad: { url, tokenEnv: WRONG_ENV } }),
    );
    process.env[WRONG_ENV] = WRONG_TOKEN;
    cleanups.push(() => delete process.env[WRONG_ENV]);
    const watcher = await remote.connectWs();
    cleanups.push(() => watcher.close());
    const remoteEvents = recorder(watcher);

    const [unknown] = await turn(client, events, 'go');
    expect(unknown).toEqual({
      summary:
        "ws://127.0.0.1:1 is not one of this pod's remotes: only the pods listed under podtree.remotes in its config can be reached by URL",
      is_error: true,
    });
    const [noToken, notListed] = await turn(client, events, 'again');
    expect(noToken).toEqual({
      summary: `remote pod \`ghost\` needs a token: the environment variable ${UNSET_ENV} (podtree.remotes.ghost.tokenEnv) is not set in this pod's environment`,
      is_error: true,
    });
    expect(notListed.is_error).toBe(true);
    expect(notListed.summary).toMatch(/^ws:\/\/ghost\.example:80 is not one of this pod's remotes/);
    const [none, wrong] = await turn(client, events, 'once more');
    expect(none).toEqual({ summary: 'no spawned pod named `nobody`', is_error: true });
    expect(wrong.is_error).toBe(true);
    expect(wrong.summary).toMatch(
      /^pod `bad` is not reachable \(the pod at ws:\/\/127\.0\.0\.1:\d+ refused the connection: no valid bearer token \(HTTP 401\)/,
    );
    expect(JSON.stringify(events).includes(WRONG_TOKEN)).toBe(false);
    for (const r of [unknown, noToken, notListed, none, wrong]) expect(r.summary.includes('\n')).toBe(false);

    // Still running, and nothing reached the configured remote.
    const h = await client.request({ method: 'get_history' });
    expect(h.event).toBe('history');
    expect(remoteEvents.filter((e) => e.event === 'user_message')).toEqual([]);
  }, 120_000);

  it('a remote whose history reply is one line over 32 MiB fails ReadPodOutput in one line; the pod keeps running (replayed: one 250 MiB reply of tiny items ran it out of heap)', async () => {
    // A hostile remote: a proxy to the real one that inflates its history reply (valid items, repeated).
    const { WebSocket, WebSocketServer } = await import('ws');
    let target = '';
    const hostile = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => hostile.once('listening', r));
    cleanups.push(() => new Promise((r) => hostile.close(r)));
    let inflated = 0;
    hostile.on('connection', (down, req) => {
      const up = new WebSocket(target, { headers: { authorization: req.headers.authorization ?? '' } });
      const queued: string[] = [];
      up.on('open', () => queued.splice(0).forEach((m) => up.send(m)));
      down.on('message', (d: Buffer) =>
        up.readyState === WebSocket.OPEN ? up.send(d.toString()) : queued.push(d.toString()),
      );
      up.on('message', (d: Buffer) => {
        const lines = d
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((line) => {
            const e = JSON.parse(line) as { event: string; data?: { items?: unknown[] } };
            if (e.event !== 'history' || !e.data?.items?.length) return line;
            const one = JSON.stringify(e.data.items).length;
            const times = Math.ceil((40 * 2 ** 20) / one);
            e.data.items = Array.from({ length: times }, () => e.data!.items!).flat();
            inflated++;
            return JSON.stringify(e);
          });
        down.send(`${lines.join('\n')}\n`);
      });
      down.on('close', () => up.close());
      up.on('close', () => down.close());
    });
    const hostileUrl = `ws://127.0.0.1:${(hostile.address() as { port: number }).port}`;
    const { client, events } = await remoteAndParent(
      () => [
        { tool_calls: [{ name: 'SendToPod', arguments: { name: 'rev', message: 'review the patch' } }] },
        { text: 'sent' },
        { tool_calls: [{ name: 'ReadPodOutput', arguments: { name: 'evil' } }] },
        { text: 'still here' },
      ],
      (url) => {
        target = url;
        return { evil: { url: hostileUrl, tokenEnv: TOKEN_ENV } };
      },
    );
    await turn(client, events, 'send');
    const [read] = await turn(client, events, 'read');
    expect(inflated).toBe(1);
    expect(read.is_error).toBe(true);
    expect(read.summary.includes('\n')).toBe(false);
    expect(read.summary).toBe('Tool execution failed: the pod sent a message over 32 MiB, more than this client takes');
    const h = await client.request({ method: 'get_history' });
    expect(h.event).toBe('history');
  }, 120_000);

  it('a config whose remote URL has a path or credentials is refused at start, naming the key', async () => {
    await expect(
      startTestPod({
        config: { podtree: { remotes: { rev: { url: 'ws://me:pw@127.0.0.1:7000/x', tokenEnv: TOKEN_ENV } } } },
      }),
    ).rejects.toThrow(
      /podtree\.remotes\.rev\.url: a ws:\/\/HOST:PORT or wss:\/\/HOST:PORT URL, without credentials, path or query/,
    );
  });
});
