import { describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { isPidAlive } from '../../../core/pod/podFiles.js';
import { waitUntil } from '../../support/waitUntil.js';

// A killed child pod whose spawner died is a zombie until something reaps it (a container's init
// may never do): it still answers signal 0, and its scope.lock allocation was never reclaimed.
const python = spawnSync('python3', ['-c', 'pass']).status === 0;
if (!python) console.warn('skipped: making a zombie takes python3 (a parent that never waits)');

describe('isPidAlive', () => {
  (python ? it : it.skip)('a zombie (dead, not yet reaped) is not alive; its parent is', async () => {
    const parent = spawn(
      'python3',
      ['-c', 'import os,time\npid=os.fork()\nif pid==0: os._exit(0)\nprint(pid, flush=True)\ntime.sleep(60)'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const pid = await new Promise<number>((resolve) =>
        parent.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))),
      );
      await waitUntil(
        () => / Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\)/, ')')),
        'the child to be a zombie',
        30_000,
      );
      expect(isPidAlive(pid)).toBe(false);
      expect(isPidAlive(parent.pid!)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
