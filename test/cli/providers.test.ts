import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { openAiStream, startFakeLlmServer, type FakeLlmServer } from '../support/fakeLlmServer.js';
import { makeProject } from '../support/startTestPod.js';
import { startPodProcess, yoiAsync } from '../support/runCli.js';

let fake: FakeLlmServer | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  await fake?.close();
  fake = undefined;
});

function project(model: Record<string, unknown>) {
  const dir = makeProject({ 'yoi.config.json': JSON.stringify({ model }) });
  return { dir, env: { YOI_RUNTIME_DIR: path.join(dir, 'run'), ANTHROPIC_API_KEY: '' } };
}

describe('real providers from the CLI', () => {
  it('a missing API key fails `yoi pod start` with one line, before anything listens', async () => {
    const p = project({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    const r = await yoiAsync(['pod', 'start'], { cwd: p.dir, env: p.env });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'yoi: cannot start provider "anthropic": plugin yoi:anthropic failed in providers(anthropic): the API key variable ANTHROPIC_API_KEY is not set: export it, or name another variable in model.apiKeyEnv [YOI_ERR_PROVIDER]\n',
    );
    expect(fs.existsSync(path.join(p.dir, 'run', 'default', 'sock'))).toBe(false);
  });

  it('a pod process on openai-compatible retries a reset connection and streams the reply to `yoi send`', async () => {
    fake = await startFakeLlmServer();
    fake.reply(
      { kind: 'reset' },
      { kind: 'sse', events: openAiStream({ text: ['hello ', 'from ', 'the fake'], usage: { input: 5, output: 3 } }) },
    );
    const p = project({ provider: 'openai-compatible', baseURL: fake.baseURL, model: 'local', maxRetries: 1 });
    const pod = await startPodProcess([], { cwd: p.dir, env: p.env });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    const sent = await yoiAsync(['send', 'hi'], { cwd: p.dir, env: p.env });
    expect(sent.stdout).toContain('hello from the fake');
    expect(sent.status).toBe(0);
    expect(fake.requests).toHaveLength(2);
    const stopped = await yoiAsync(['pod', 'stop'], { cwd: p.dir, env: p.env });
    expect(stopped.status).toBe(0);
    expect(await pod.exited).toBe(0); // nothing (sockets, timers) keeps the process alive
    expect(pod.stderr()).toBe('');
  });
});
