import net from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import WebSocket from 'ws';
import type { Event } from '../../../core/protocol/index.js';
import { runEnded, text } from '../../support/startTestPod.js';
import { waitUntil } from '../../support/waitUntil.js';
import { startWsPod, type WsTestPod } from '../../support/wsPod.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function pod(opts: Parameters<typeof startWsPod>[0]): Promise<WsTestPod> {
  const tp = await startWsPod(opts);
  cleanups.push(() => tp.stop());
  return tp;
}

function tcp(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(port), hostname, () => resolve(s));
    s.once('error', reject);
    cleanups.push(() => s.destroy());
  });
}

/** A raw ws client that said hello; `events` collects what it reads. */
async function helloWs(url: string, token: string): Promise<{ ws: WebSocket; events: Event[] }> {
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
  const events: Event[] = [];
  ws.on('message', (d) => events.push(JSON.parse(d.toString()) as Event));
  ws.on('error', () => undefined);
  cleanups.push(() => ws.terminate());
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send('{"method":"hello","params":{"protocol_version":2,"client":"raw/1"}}');
  await waitUntil(() => events.some((e) => e.event === 'welcome'), 'welcome');
  return { ws, events };
}

describe('yoi:ws bounds', () => {
  it('a handshake that never completes (slowloris) is cut after handshakeTimeoutMs; others are served meanwhile', async () => {
    const tp = await pod({ urls: [], config: { listen: [{ url: 'ws://127.0.0.1:0', handshakeTimeoutMs: 500 }] } });
    const dribbling = await tcp(tp.url);
    dribbling.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n');
    const silent = await tcp(tp.url);
    const closed = (s: net.Socket) =>
      new Promise<void>((resolve) => (s.closed ? resolve() : s.once('close', () => resolve())));
    console.log('silent open');
    const client = await tp.connectWs();
    console.log('connected');
    cleanups.push(() => client.close());
    expect((await client.request({ method: 'get_history' })).event).toBe('history');
    await Promise.all([closed(dribbling), closed(silent)]); // bounded by the jest timeout, not by a sleep
    expect((await client.request({ method: 'get_history' })).event).toBe('history');
  });

  it('at most maxConnections at once: more are closed as they arrive, those open keep working', async () => {
    const tp = await pod({ urls: [], config: { listen: [{ url: 'ws://127.0.0.1:0', maxConnections: 4 }] } });
    const open: Awaited<ReturnType<typeof tp.connectWs>>[] = [];
    for (let i = 0; i < 4; i++) open.push(await tp.connectWs());
    cleanups.push(() => Promise.all(open.map((c) => c.close())));
    await expect(tp.connectWs()).rejects.toMatchObject({ code: 'YOI_ERR_CONNECTION' });
    for (const c of open) expect((await c.request({ method: 'get_history' })).event).toBe('history');
    await open.pop()!.close();
    // The server counts the closed one out when its socket is gone: retry until it does.
    let again;
    for (let attempt = 0; attempt < 200 && !again; attempt++) again = await tp.connectWs().catch(() => undefined);
    expect(again?.protocol).toBe(2);
    open.push(again!);
  });

  it("a probe's connection closes after its answer: probes cannot keep a connection, and its slot, for ever (replayed)", async () => {
    const tp = await pod({ urls: [], config: { listen: [{ url: 'ws://127.0.0.1:0', handshakeTimeoutMs: 60_000 }] } });
    // Each probing every 3 s inside the 5 s keep-alive, 1,024 connections had held every slot.
    const probe = await tcp(tp.url);
    let answer = '';
    probe.on('data', (d: Buffer) => (answer += d.toString()));
    const closed = new Promise((r) => probe.once('close', r));
    probe.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer.endsWith('ok\n')).toBe(true);
  });

  it('connections without a token hold at most half the slots: a new one closes the oldest, and a client gets in (replayed)', async () => {
    const tp = await pod({
      urls: [],
      config: { listen: [{ url: 'ws://127.0.0.1:0', maxConnections: 8, handshakeTimeoutMs: 60_000 }] },
    });
    // Silent connections in every slot, none cut before the 60 s handshake limit: 1,024 of them
    // had locked every client out.
    let closed = 0;
    for (let i = 0; i < 8; i++) {
      const s = await tcp(tp.url);
      s.on('data', () => undefined);
      s.once('close', () => closed++);
    }
    await waitUntil(() => closed >= 4, 'the oldest silent connections to give way');
    const client = await tp.connectWs();
    cleanups.push(() => client.close());
    expect((await client.request({ method: 'get_history' })).event).toBe('history');
  });

  it('one address flooding silent connections closes its own, not a handshake from another address (replayed)', async () => {
    const tp = await pod({
      urls: [],
      config: { listen: [{ url: 'ws://127.0.0.1:0', maxConnections: 8, handshakeTimeoutMs: 60_000 }] },
    });
    const { port } = new URL(tp.url);
    // A client from 127.0.0.2 whose handshake is slow: connected, its upgrade not sent yet.
    const slow = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect({ port: Number(port), host: '127.0.0.1', localAddress: '127.0.0.2' }, () => resolve(s));
      s.once('error', reject);
      cleanups.push(() => s.destroy());
    });
    let reply = '';
    let slowClosed = false;
    slow.on('data', (d) => (reply += d));
    slow.once('close', () => (slowClosed = true));
    // Before: the oldest pending connection went first, whoever's it was.
    let closed = 0;
    for (let i = 0; i < 8; i++) {
      const s = await tcp(tp.url);
      s.on('data', () => undefined);
      s.once('close', () => closed++);
    }
    await waitUntil(() => closed + (slowClosed ? 1 : 0) >= 5, 'five of the nine pending connections to give way');
    expect(slowClosed).toBe(false);
    slow.write(
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${tp.token}\r\n\r\n`,
    );
    await waitUntil(() => reply.includes('\r\n\r\n'), 'the answer to the upgrade');
    expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
  });

  it('a ws client that stops reading (stalled TCP window) gets lagged; a socket client loses nothing', async () => {
    const tp = await pod({ config: { limits: { clientQueueBytes: 256 * 1024 } } });
    const known = new Set(tp.pod.bus.clients);
    const slow = await helloWs(tp.url, tp.token);
    const conn = [...tp.pod.bus.clients].find((c) => !known.has(c))!;
    slow.ws.pause(); // stops reading the TCP socket: the kernel's window fills, then the pod's queue
    const other = await tp.connect();
    cleanups.push(() => other.close());
    const seen: Event[] = [];
    other.onEvent((e) => seen.push(e));
    let runs = 0;
    while (conn.dropped === 0 && runs < 200) {
      const ended = runEnded(other, 60_000);
      await other.request({ method: 'run', params: { input: [text('y'.repeat(512 * 1024))] } });
      await ended;
      runs++;
    }
    expect(conn.dropped).toBeGreaterThan(0);
    expect(conn.backlogBytes).toBeLessThan(4 * 256 * 1024 + 16 * 1024 * 1024); // its queue bound, plus one line and the socket's share
    expect(seen.some((e) => e.event === 'lagged')).toBe(false);
    expect(seen.filter((e) => e.event === 'run_end')).toHaveLength(runs);
    slow.ws.resume();
    await waitUntil(() => slow.events.some((e) => e.event === 'lagged'), 'lagged');
    await waitUntil(
      () => slow.events.filter((e) => e.event === 'run_end').length === runs,
      'every run_end (never dropped)',
    );
    const lagged = slow.events.find((e) => e.event === 'lagged') as Extract<Event, { event: 'lagged' }>;
    expect(lagged.data.to_seq).toBeGreaterThanOrEqual(lagged.data.from_seq);
  }, 300_000);
});
