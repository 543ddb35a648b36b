import { afterEach, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { makeProject } from '../support/startTestPod.js';
import { startPodProcess, yoi } from '../support/runCli.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('yoi attach without a terminal session', () => {
  it('names a pod that is not running in one line', () => {
    const dir = makeProject();
    const r = yoi(['attach', '--pod', 'nope'], { cwd: dir, env: { YOI_RUNTIME_DIR: path.join(dir, 'run') } });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `yoi: pod nope is not running (no pod listens on ${path.join(dir, 'run', 'nope', 'sock')}); start it with: yoi pod start --name nope --detach [YOI_ERR_POD_NOT_FOUND]\n`,
    );
  });

  it('refuses to run without a terminal, in one line, leaving the pod alone', async () => {
    const dir = makeProject();
    const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
    const pod = await startPodProcess(['--name', 'here'], { cwd: dir, env });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    const r = yoi(['attach', '--pod', 'here'], { cwd: dir, env });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'yoi: yoi attach needs an interactive terminal (in scripts use yoi send and yoi history) [YOI_ERR_NOT_A_TERMINAL]\n',
    );
    expect(r.stdout).not.toContain('\x1b[?2004h');
    expect(pod.child.exitCode).toBeNull();
  });
});
