import https from 'node:https';
import net from 'node:net';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import { PodClient } from '../../../client/PodClient.js';
import { runEnded, text } from '../../support/startTestPod.js';
import { selfSignedCert } from '../../support/selfSignedCert.js';
import { startWsPod, type WsTestPod } from '../../support/wsPod.js';

const tls = selfSignedCert();
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => fs.rmSync(tls.dir, { recursive: true, force: true }));

async function pod(opts: Parameters<typeof startWsPod>[0] = {}): Promise<WsTestPod> {
  const tp = await startWsPod({ urls: ['wss://127.0.0.1:0'], tlsCert: tls.cert, tlsKey: tls.key, ...opts });
  cleanups.push(() => tp.stop());
  return tp;
}

function get(url: string, ca?: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('yoi:ws over TLS (wss://)', () => {
  it('a client trusting the certificate runs a turn; one that does not is refused with one line', async () => {
    const tp = await pod();
    expect(tp.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+$/);
    const client = await tp.connectWs({ ca: tls.pem });
    cleanups.push(() => client.close());
    const ended = runEnded(client, 60_000);
    await client.request({ method: 'run', params: { input: [text('over TLS')] } });
    expect((await ended).event).toBe('run_end');
    const untrusted = await PodClient.connect({ url: tp.url, token: tp.token }).then(
      () => undefined,
      (e: Error & { code?: string }) => e,
    );
    expect(untrusted?.code).toBe('YOI_ERR_CONNECTION');
    expect(untrusted?.message).toMatch(/TLS certificate is not trusted.*NODE_EXTRA_CA_CERTS/);
    // A plain ws:// client on the TLS port gets nowhere.
    const plain = await PodClient.connect({
      url: tp.url.replace('wss:', 'ws:'),
      token: tp.token,
      connectTimeoutMs: 5000,
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(plain).toBeInstanceOf(Error);
  });

  it('the probes answer over https; a TLS handshake that never starts is cut', async () => {
    const tp = await pod({
      urls: [],
      config: { listen: [{ url: 'wss://127.0.0.1:0', tlsCert: tls.cert, tlsKey: tls.key, handshakeTimeoutMs: 500 }] },
    });
    const base = tp.url.replace(/^wss:/, 'https:');
    expect(await get(`${base}/healthz`, tls.pem)).toEqual({ status: 200, body: 'ok\n' });
    expect(await get(`${base}/readyz`, tls.pem)).toEqual({ status: 200, body: 'ready\n' });
    const { port } = new URL(tp.url);
    const silent = net.connect(Number(port), '127.0.0.1');
    cleanups.push(() => silent.destroy());
    await new Promise<void>((resolve) => silent.once('close', () => resolve()));
    const client = await tp.connectWs({ ca: tls.pem });
    cleanups.push(() => client.close());
    expect((await client.request({ method: 'get_history' })).event).toBe('history');
  });

  it('a missing key file is one line naming it', async () => {
    const err = await startWsPod({
      urls: ['wss://127.0.0.1:0'],
      tlsCert: tls.cert,
      tlsKey: `${tls.dir}/missing.pem`,
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(
      /cannot listen on wss:\/\/127\.0\.0\.1:0: cannot read the TLS key .*missing\.pem: ENOENT/,
    );
  });
});
