import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { startPodProcess, yoiAsync } from '../support/runCli.js';
import { selfSignedCert } from '../support/selfSignedCert.js';
import { makeProject } from '../support/startTestPod.js';
import { waitUntil } from '../support/waitUntil.js';

// The built CLI end to end: `yoi pod start --listen`, then clients that only know a URL and a token.

const tls = selfSignedCert();
const kills: (() => void)[] = [];
afterAll(() => {
  for (const k of kills) k();
  fs.rmSync(tls.dir, { recursive: true, force: true });
});

async function startListening(name: string, listen: string[]) {
  const dir = makeProject();
  const runtime = path.join(dir, 'run');
  const pod = await startPodProcess(['--name', name, ...listen], { cwd: dir, env: { YOI_RUNTIME_DIR: runtime } });
  kills.push(() => pod.child.kill('SIGKILL'));
  const podDir = path.join(runtime, name);
  const { listen: urls } = JSON.parse(fs.readFileSync(path.join(podDir, 'endpoints.json'), 'utf8')) as {
    listen: string[];
  };
  const token = fs.readFileSync(path.join(podDir, 'token'), 'utf8').trim();
  // Clients run elsewhere: another directory and runtime dir, nothing but the URL and the token.
  const elsewhere = makeProject();
  const env = { YOI_RUNTIME_DIR: path.join(elsewhere, 'run') };
  return { pod, urls, token, elsewhere, env };
}

describe('yoi send --url', () => {
  it('streams a reply over ws:// with YOI_TOKEN or --token-env; a missing or wrong token is one line', async () => {
    const { pod, urls, token, elsewhere, env } = await startListening('remote', ['--listen', 'ws://127.0.0.1:0']);
    await waitUntil(
      () => /yoi: listening ws:\/\/127\.0\.0\.1:\d+ \(bearer token: .*\/remote\/token\)/.test(pod.stderr()),
      'the listening note',
    );
    const [url] = urls;
    const sent = await yoiAsync(['send', '--url', url, 'hello from afar'], {
      cwd: elsewhere,
      env: { ...env, YOI_TOKEN: token },
      timeoutMs: 60_000,
    });
    expect(sent.stderr).toBe('');
    expect(sent.status).toBe(0);
    expect(sent.stdout).toContain('hello from afar');

    const viaVar = await yoiAsync(['history', '--url', url, '--token-env', 'MY_POD_TOKEN', '--json'], {
      cwd: elsewhere,
      env: { ...env, MY_POD_TOKEN: token },
      timeoutMs: 60_000,
    });
    expect(viaVar.status).toBe(0);
    expect(viaVar.stdout).toContain('hello from afar');

    const none = await yoiAsync(['send', '--url', url, 'x'], {
      cwd: elsewhere,
      env: { ...env, YOI_TOKEN: '' },
      timeoutMs: 60_000,
    });
    expect(none.status).not.toBe(0);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.stderr).toMatch(/no usable token for ws:\/\/.*YOI_TOKEN is not set/);

    const wrong = await yoiAsync(['send', '--url', url, 'x'], {
      cwd: elsewhere,
      env: { ...env, YOI_TOKEN: 'definitely-not-the-token-1234' },
      timeoutMs: 60_000,
    });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toMatch(/refused the connection: no valid bearer token \(HTTP 401\)/);
    await waitUntil(
      () => /refused a connection from 127\.0\.0\.1 \(HTTP 401\): wrong bearer token/.test(pod.stderr()),
      'the refusal in the pod log',
    );

    const status = await yoiAsync(['pod', 'status', '--url', url, '--json'], {
      cwd: elsewhere,
      env: { ...env, YOI_TOKEN: token },
      timeoutMs: 60_000,
    });
    expect(status.status).toBe(0);
    expect(status.stdout).toContain('remote');

    const stopped = await yoiAsync(['pod', 'stop', '--url', url], {
      cwd: elsewhere,
      env: { ...env, YOI_TOKEN: token },
      timeoutMs: 60_000,
    });
    expect(stopped.status).toBe(0);
    expect(await pod.exited).toBe(0);
  }, 240_000);

  it('reaches a wss:// pod whose certificate NODE_EXTRA_CA_CERTS trusts', async () => {
    const { urls, token, elsewhere, env } = await startListening('secure', [
      '--listen',
      'wss://127.0.0.1:0',
      '--tls-cert',
      tls.cert,
      '--tls-key',
      tls.key,
    ]);
    const [url] = urls;
    expect(url).toMatch(/^wss:/);
    const refused = await yoiAsync(['send', '--url', url, 'x'], {
      cwd: elsewhere,
      env: { ...env, YOI_TOKEN: token },
      timeoutMs: 60_000,
    });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/TLS certificate is not trusted/);
    const sent = await yoiAsync(['send', '--url', url, 'hello over tls'], {
      cwd: elsewhere,
      env: { ...env, YOI_TOKEN: token, NODE_EXTRA_CA_CERTS: tls.cert },
      timeoutMs: 60_000,
    });
    expect(sent.status).toBe(0);
    expect(sent.stdout).toContain('hello over tls');
  }, 240_000);
});
