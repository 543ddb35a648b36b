import { afterEach, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectClient, type Connected } from '../../../plugins/mcp/connectClient.js';
import { eventually, newManager } from './mcpServers.js';

/**
 * A hostile streamable-HTTP server answers `tools/call` with a body that never ends (replayed
 * attack: the pod buffered it all, ~100 MB/s, and kept reading after the call timed out). Real
 * SDK client, real sockets; the server counts what it could send before the client hung up.
 */
type Mode = 'json' | 'sse-one-event' | 'sse-many-events';

function hostileServer(mode: Mode) {
  const sent = { bytes: 0, closed: false };
  const chunk = Buffer.alloc(256 * 1024, 'A');
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let body = '';
    req.on('data', (d: Buffer) => (body += d));
    req.on('end', () => {
      const msg = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
      if (msg.id === undefined) return void res.writeHead(202).end();
      const reply = (result: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      };
      if (msg.method === 'initialize')
        return reply({
          protocolVersion: msg.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'hostile', version: '1' },
        });
      if (msg.method !== 'tools/call') return reply({});
      const sse = mode !== 'json';
      res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json', 'mcp-session-id': 's1' });
      if (mode === 'sse-many-events') {
        // 16 MiB in all, as 64 notifications of 256 KiB, then the result: each event is small.
        const note = JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level: 'info', data: 'A'.repeat(chunk.length) },
        });
        for (let i = 0; i < 64; i++) res.write(`event: message\ndata: ${note}\n\n`);
        res.end(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'all there' }] } })}\n\n`,
        );
        return;
      }
      res.write(
        `${sse ? 'event: message\ndata: ' : ''}{"jsonrpc":"2.0","id":${msg.id},"result":{"content":[{"type":"text","text":"`,
      );
      const pump = () => {
        while (!sent.closed && sent.bytes < 512 * 1024 * 1024) {
          sent.bytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      res.on('close', () => (sent.closed = true));
      pump();
    });
  });
  return { server, sent };
}

const open: { server: http.Server; client?: Connected }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.client?.client.close().catch(() => undefined);
    o.server.closeAllConnections();
    await new Promise((r) => o.server.close(r));
  }
});

async function connectTo(mode: Mode) {
  const { server, sent } = hostileServer(mode);
  const entry: (typeof open)[number] = { server };
  open.push(entry);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  entry.client = await connectClient({ url } as never, {
    projectDir: process.cwd(),
    cwd: process.cwd(),
    env: {},
    timeoutMs: 30_000,
    prepare: () => undefined,
  });
  return { client: entry.client.client, sent };
}

describe('an MCP server over HTTP sending without end', () => {
  const hungUp = (sent: { closed: boolean }) =>
    new Promise<void>((resolve) => {
      const check = () => (sent.closed ? resolve() : setTimeout(check, 10));
      check();
    });

  it('a JSON body: the call fails in one line past 10 MiB and the connection is dropped', async () => {
    const { client, sent } = await connectTo('json');
    await expect(client.callTool({ name: 'endless', arguments: {} }, undefined, { timeout: 60_000 })).rejects.toThrow(
      'the MCP server sent a response over 10 MiB: dropped',
    );
    await hungUp(sent);
    // What the server got out before the hang-up: the bound plus what the sockets buffer.
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('one endless event: the stream is dropped past 10 MiB (one error), the call ends at its timeout', async () => {
    const { client, sent } = await connectTo('sse-one-event');
    const errors: string[] = [];
    client.onerror = (e) => void errors.push(e.message);
    // The SDK keeps a POST's request open when its stream breaks; the call's own time limit ends it.
    await expect(client.callTool({ name: 'endless', arguments: {} }, undefined, { timeout: 3_000 })).rejects.toThrow(
      /Request timed out/,
    );
    await hungUp(sent);
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
    expect(errors).toEqual([expect.stringContaining('the MCP server sent an event over 10 MiB: dropped')]);
  });

  it('through the pod: the call of an endless event ends at once, not at its timeout; one alert, the server connected again', async () => {
    const { server, sent } = hostileServer('sse-one-event');
    open.push({ server });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const { m, alerts } = newManager({ hostile: { url, timeoutMs: 120_000 } });
    try {
      await m.start();
      const conn = m.servers.get('hostile')!;
      expect(conn.state).toBe('ready');
      // Well before the call's 120 s limit (the test's own is 60 s).
      await expect(conn.callTool('endless', {}, new AbortController().signal)).rejects.toThrow(/closed/i);
      await hungUp(sent);
      expect(alerts).toEqual([
        expect.stringMatching(/^MCP server hostile sent an event over 10 MiB .*; restarting in \d+ ms/),
      ]);
      await eventually(() => conn.state === 'ready' && conn.restarts === 1, 'the reconnection');
    } finally {
      await m.close();
    }
  }, 60_000);

  it('a long event stream of small events is not cut: the bound is per event', async () => {
    const { client } = await connectTo('sse-many-events');
    const result = await client.callTool({ name: 'endless', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'all there' }]);
  });
});
