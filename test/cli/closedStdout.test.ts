import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { makeProject, runEnded, text } from '../support/startTestPod.js';
import { BIN, startPodProcess } from '../support/runCli.js';

/**
 * Found piping a long history into `head`: `yoi history | head -c 10` ended with exit code 1 and
 * an unhandled EPIPE's stack trace. A reader that stops reading now ends the command quietly.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Runs `yoi args`, closing its stdout after the first chunk; resolves with its exit code and stderr. */
function readFirstChunk(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a reader that stops reading', () => {
  it('ends `yoi history` and `yoi send` quietly', async () => {
    const dir = fs.realpathSync(makeProject());
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
    const pod = await startPodProcess(['--name', 'p'], { cwd: dir, env });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    const c = await PodClient.connect({ socketPath: pod.socket, clientName: 'test/1' });
    cleanups.push(() => c.close());
    const ended = runEnded(c, 30_000);
    await c.request({ method: 'run', params: { input: [text('x'.repeat(1_000_000))] } });
    expect((await ended).event).toBe('run_end');

    const history = await readFirstChunk(['history', '--pod', 'p'], dir, env);
    expect(history).toEqual({ code: 0, stderr: '' });
    const send = await readFirstChunk(['send', '--pod', 'p', 'y'.repeat(100_000)], dir, env);
    expect(send).toEqual({ code: 0, stderr: '' });
  });
});
