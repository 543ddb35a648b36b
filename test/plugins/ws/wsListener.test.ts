import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import WebSocket from 'ws';
import type { Event } from '../../../core/protocol/index.js';
import { recorder, runEnded, text } from '../../support/startTestPod.js';
import { waitUntil } from '../../support/waitUntil.js';
import { startWsPod, type WsTestPod } from '../../support/wsPod.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  jest.restoreAllMocks();
});

async function pod(opts: Parameters<typeof startWsPod>[0] = {}): Promise<WsTestPod> {
  const tp = await startWsPod(opts);
  cleanups.push(() => tp.stop());
  return tp;
}

/** A bare `ws` client: raw frames both ways. */
function rawWs(
  url: string,
  headers: Record<string, string>,
): Promise<
  | { ws: WebSocket; frames: string[]; events: Event[] }
  | { status: number; headers: Record<string, unknown>; body: string }
> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const frames: string[] = [];
    const events: Event[] = [];
    ws.on('message', (data) => {
      frames.push(data.toString());
      for (const line of data.toString().split('\n')) if (line) events.push(JSON.parse(line) as Event);
    });
    ws.on('error', () => undefined);
    ws.once('open', () => {
      cleanups.push(() => ws.terminate());
      resolve({ ws, frames, events });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    ws.once('close', () => reject(new Error('closed before open')));
  });
}

async function openRaw(url: string, token: string): Promise<{ ws: WebSocket; frames: string[]; events: Event[] }> {
  const r = await rawWs(url, { authorization: `Bearer ${token}` });
  if (!('ws' in r)) throw new Error(`refused: ${r.status}`);
  return r;
}

const bySeq = (events: Event[]) => events.filter((e) => typeof e.seq === 'number').map((e) => `${e.seq}:${e.event}`);

describe('yoi:ws — the protocol over WebSocket', () => {
  it('a socket client and a ws client on one pod see the same seq stream, gap-free', async () => {
    const tp = await pod();
    const overSocket = await tp.connect();
    const overWs = await tp.connectWs();
    cleanups.push(
      () => overSocket.close(),
      () => overWs.close(),
    );
    expect(overWs.protocol).toBe(2);
    expect(overWs.welcome?.pod_name).toBe('test');
    const a = recorder(overSocket);
    const b = recorder(overWs);
    const endA = runEnded(overSocket, 60_000);
    const endB = runEnded(overWs, 60_000);
    await overWs.request({ method: 'run', params: { input: [text('hello over the network')] } });
    await Promise.all([endA, endB]);
    expect(bySeq(b).length).toBeGreaterThan(3);
    expect(bySeq(b)).toEqual(bySeq(a));
    const seqs = b.filter((e) => typeof e.seq === 'number').map((e) => e.seq!);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe(seqs[i - 1] + 1);
    expect(b.some((e) => e.event === 'text_delta')).toBe(true);
  });

  it('replies carry the request id and go to the requester only; v1 works over ws too', async () => {
    const tp = await pod();
    const overSocket = await tp.connect();
    const overWs = await tp.connectWs();
    const v1 = await tp.connectWs({ protocol: 1 });
    cleanups.push(
      () => overSocket.close(),
      () => overWs.close(),
      () => v1.close(),
    );
    const seenBySocket = recorder(overSocket);
    const reply = await overWs.request({ method: 'get_history' });
    expect(reply.event).toBe('history');
    expect(v1.protocol).toBe(1);
    const v1History = v1.waitFor((e) => e.event === 'history', 30_000);
    v1.send({ method: 'get_history' });
    expect((await v1History).request_id).toBeUndefined();
    // The socket client did not get the ws client's reply (give it a request of its own to be sure it is reading).
    await overSocket.request({ method: 'get_history' });
    expect(seenBySocket.filter((e) => e.event === 'history')).toHaveLength(1);
  });

  it('one message per text frame: frames with several lines, binary frames and bad frames are answered per connection', async () => {
    const tp = await pod();
    const bystander = await tp.connectWs();
    cleanups.push(() => bystander.close());
    const seen = recorder(bystander);
    const raw = await openRaw(tp.url, tp.token);
    raw.ws.send(
      '{"method":"hello","params":{"protocol_version":2,"client":"raw/1"}}\n{"method":"get_history","request_id":"two"}',
    );
    await waitUntil(() => raw.events.some((e) => e.request_id === 'two'), 'the second line of one frame');
    expect(raw.events.find((e) => e.event === 'welcome')).toBeDefined();
    // Every event arrives as its own frame, without a newline.
    expect(raw.frames.every((f) => !f.includes('\n'))).toBe(true);
    raw.ws.send(Buffer.from('{"method":"get_history","request_id":"bin"}'), { binary: true });
    await waitUntil(
      () => raw.events.some((e) => e.request_id === 'bin' && e.event === 'history'),
      'a binary frame read as text',
    );
    raw.ws.send('{not json', { binary: false });
    raw.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false }); // invalid UTF-8
    await waitUntil(() => raw.events.filter((e) => e.event === 'error').length >= 2, 'two errors');
    const errors = raw.events.filter((e) => e.event === 'error');
    expect(errors.map((e) => (e.data as { code: string }).code)).toEqual(['invalid_request', 'invalid_request']);
    raw.ws.send('{"method":"get_history","request_id":"after"}');
    await waitUntil(() => raw.events.some((e) => e.request_id === 'after'), 'the connection still served');
    expect(seen.filter((e) => e.event === 'error')).toHaveLength(0);
    expect(raw.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('a missing or wrong token gets 401 before the handshake, is logged, and the pod keeps serving', async () => {
    const tp = await pod();
    const logged: string[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logged.push(String(chunk));
      return true;
    });
    const none = await rawWs(tp.url, {});
    expect('status' in none && none.status).toBe(401);
    expect('status' in none && none.headers['www-authenticate']).toBe('Bearer');
    const wrong = await rawWs(tp.url, { authorization: `Bearer ${tp.token.slice(0, -1)}x` });
    expect('status' in wrong && wrong.status).toBe(401);
    const otherScheme = await rawWs(tp.url, { authorization: `Basic ${tp.token}` });
    expect('status' in otherScheme && otherScheme.status).toBe(401);
    await expect(tp.connectWs({ token: 'not-the-token-at-all-0123456789' })).rejects.toMatchObject({
      code: 'YOI_ERR_AUTH',
    });
    expect(logged.filter((l) => /refused a connection from 127\.0\.0\.1 \(HTTP 401\)/.test(l)).length).toBe(4);
    expect(logged.join('')).not.toContain(tp.token);
    const good = await tp.connectWs();
    cleanups.push(() => good.close());
    expect((await good.request({ method: 'get_history' })).event).toBe('history');
    const local = await tp.connect();
    cleanups.push(() => local.close());
    expect((await local.request({ method: 'get_history' })).event).toBe('history');
  });

  const flood = async (url: string) => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await rawWs(url, { authorization: 'Bearer wrong-wrong-wrong-wrong' });
      statuses.push('status' in r ? r.status : 101);
    }
    return statuses;
  };

  it("repeated failures from one address get 429; the holder of the pod's token, on that address, still gets in", async () => {
    // Replayed: wrong tokens sent from the holder's address locked the holder out.
    const tp = await pod();
    jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const statuses = await flood(tp.url);
    expect(statuses.slice(0, 10)).toEqual(new Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const limited = await rawWs(tp.url, { authorization: 'Bearer another-wrong-one-another-wrong' });
    expect('status' in limited && limited.status).toBe(429);
    expect('status' in limited && Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const holder = await tp.connectWs();
    cleanups.push(() => holder.close());
    expect((await holder.request({ method: 'get_history' })).event).toBe('history');
    // Still limited for anyone without it.
    expect(await flood(tp.url)).toEqual(new Array(12).fill(429));
    const local = await tp.connect();
    cleanups.push(() => local.close());
    expect((await local.request({ method: 'get_history' })).event).toBe('history');
  });

  it('a short --token-env token keeps the limit first: once limited, the right token waits too (its guesses stay limited)', async () => {
    process.env.YOI_TEST_WS_SHORT = 'short-token-0123'; // 16 characters: the least accepted
    cleanups.push(() => delete process.env.YOI_TEST_WS_SHORT);
    const tp = await pod({ tokenEnv: 'YOI_TEST_WS_SHORT' });
    jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect((await flood(tp.url)).slice(10)).toEqual([429, 429]);
    await expect(tp.connectWs()).rejects.toThrow(/HTTP 429/);
  });

  it('a browser Origin is refused with 403 unless the listener allows it', async () => {
    const tp = await pod({
      urls: [],
      config: { listen: ['ws://127.0.0.1:0', { url: 'ws://127.0.0.1:0', allowOrigins: ['https://app.example'] }] },
    });
    jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const [strict, open] = tp.urls;
    const refused = await rawWs(strict, { authorization: `Bearer ${tp.token}`, origin: 'https://app.example' });
    expect('status' in refused && refused.status).toBe(403);
    const other = await rawWs(open, { authorization: `Bearer ${tp.token}`, origin: 'https://evil.example' });
    expect('status' in other && other.status).toBe(403);
    const allowed = await rawWs(open, { authorization: `Bearer ${tp.token}`, origin: 'https://app.example' });
    expect('ws' in allowed).toBe(true);
  });

  it('GET /healthz and /readyz answer without auth and say nothing else', async () => {
    const tp = await pod();
    const http = tp.url.replace(/^ws:/, 'http:');
    const health = await fetch(`${http}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, 'ok\n']);
    const ready = await fetch(`${http}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([200, 'ready\n']);
    const other = await fetch(`${http}/status`);
    expect([other.status, await other.text()]).toEqual([404, 'not found\n']);
    for (const r of [health, ready]) {
      expect([...r.headers.keys()].sort()).toEqual([
        'cache-control',
        'connection',
        'content-length',
        'content-type',
        'date',
      ]);
    }
  });

  it('a frame over limits.maxLineBytes closes that connection only (1009); the pod and other clients go on', async () => {
    const tp = await pod({ config: { limits: { maxLineBytes: 4096, inputBufferBytes: 1 << 20 } } });
    const other = await tp.connectWs();
    const local = await tp.connect();
    cleanups.push(
      () => other.close(),
      () => local.close(),
    );
    const raw = await openRaw(tp.url, tp.token);
    const closed = new Promise<number>((resolve) => raw.ws.once('close', (code) => resolve(code)));
    raw.ws.send(`{"method":"notify","params":{"message":"${'x'.repeat(8000)}"}}`);
    expect(await closed).toBe(1009);
    expect((await other.request({ method: 'get_history' })).event).toBe('history');
    expect((await local.request({ method: 'get_history' })).event).toBe('history');
  });
});

describe('the token', () => {
  it('is made at the first start as a 0600 file of the user, kept across restarts, and a loose or foreign one is refused', async () => {
    const first = await startWsPod();
    const file = path.join(first.pod.paths.dir, 'token');
    const st = fs.statSync(file);
    expect(st.mode & 0o777).toBe(0o600);
    expect(st.uid).toBe(process.getuid!());
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await first.stop();
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(first.token); // kept when the pod stops
    const again = await startWsPod({ dir: first.dir });
    expect(again.token).toBe(first.token);
    await again.stop();

    fs.chmodSync(file, 0o644);
    await expect(startWsPod({ dir: first.dir })).rejects.toMatchObject({
      code: 'YOI_ERR_PLUGIN',
      cause: { code: 'YOI_ERR_TOKEN' },
    });
    fs.chmodSync(file, 0o600);
    if (process.getuid!() === 0) {
      fs.chownSync(file, 12345, 12345);
      await expect(startWsPod({ dir: first.dir })).rejects.toMatchObject({ cause: { code: 'YOI_ERR_UNTRUSTED_PATH' } });
      fs.chownSync(file, 0, 0);
    }
    fs.rmSync(file);
    fs.writeFileSync(path.join(first.dir, 'elsewhere'), 'A'.repeat(43));
    fs.symlinkSync(path.join(first.dir, 'elsewhere'), file);
    await expect(startWsPod({ dir: first.dir })).rejects.toThrow(/symbolic link/);
    // Nothing is left listening after a refused start.
    expect(fs.existsSync(path.join(first.pod.paths.dir, 'sock'))).toBe(false);
  });

  it('--token-env takes the token from the environment and writes no token file', async () => {
    process.env.YOI_TEST_WS_TOKEN = 'a-token-from-the-environment-0123';
    cleanups.push(() => delete process.env.YOI_TEST_WS_TOKEN);
    const tp = await pod({ tokenEnv: 'YOI_TEST_WS_TOKEN' });
    expect(fs.existsSync(path.join(tp.pod.paths.dir, 'token'))).toBe(false);
    const client = await tp.connectWs({ token: 'a-token-from-the-environment-0123' });
    cleanups.push(() => client.close());
    expect(client.protocol).toBe(2);
    await expect(startWsPod({ tokenEnv: 'YOI_TEST_WS_UNSET' })).rejects.toMatchObject({
      code: 'YOI_ERR_PLUGIN',
      cause: { code: 'YOI_ERR_TOKEN' },
    });
  });
});

describe('listen URLs', () => {
  it.each([
    ['ws://0.0.0.0:0', /not a loopback address.*allowRemote: true/],
    ['ws://127.0.0.1', /expected ws:\/\/HOST:PORT/],
    ['http://127.0.0.1:0', /unsupported scheme http:/],
    ['ws://127.0.0.1:0/path', /expected ws:\/\/HOST:PORT/],
    ['wss://127.0.0.1:0', /needs a certificate and a key/],
  ])('%s is refused with one line', async (url, message) => {
    const err = await startWsPod({ urls: [url] }).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string; cause?: { code?: string } },
    );
    expect(err?.cause?.code).toBe('YOI_ERR_LISTEN');
    expect(err?.message).toMatch(/^plugin yoi:ws failed in podInit: cannot listen on /);
    expect(err?.message).toMatch(message);
    expect(err?.message).not.toContain('\n');
  });

  it('a non-loopback host listens when the config allows it', async () => {
    const tp = await pod({ urls: [], config: { listen: [{ url: 'ws://0.0.0.0:0', allowRemote: true }] } });
    expect(tp.url).toMatch(/^ws:\/\/0\.0\.0\.0:\d+$/);
    const client = await tp.connectWs({ url: tp.url.replace('0.0.0.0', '127.0.0.1') });
    cleanups.push(() => client.close());
    expect(client.protocol).toBe(2);
  });
});
