import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { makeProject } from '../support/startTestPod.js';
import { BIN } from '../support/runCli.js';

/**
 * An unknown command typed in a terminal (tmux): @oclif/plugin-not-found asks "Did you mean …?"
 * and runs the suggestion on Enter. (Without a terminal the same mistake is one line naming the
 * closest command, see cli.test.ts.)
 */
const hasTmux = spawnSync('tmux', ['-V']).status === 0;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

(hasTmux ? describe : describe.skip)('an unknown command on a terminal (tmux)', () => {
  it('asks whether the closest command was meant and runs it on Enter', async () => {
    const dir = makeProject();
    const sock = path.join(dir, 'tmux.sock');
    const tmux = (...args: string[]) =>
      execFileSync('tmux', ['-S', sock, '-f', '/dev/null', ...args], { encoding: 'utf8' });
    const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
    tmux(
      'new-session',
      '-d',
      '-x',
      '160',
      '-y',
      '20',
      '-c',
      dir,
      `YOI_RUNTIME_DIR=${q(path.join(dir, 'run'))} ${q(process.execPath)} ${q(BIN)} hstory --pod nobody; echo "[exit $?]"; exec cat`,
    );
    cleanups.push(() => spawnSync('tmux', ['-S', sock, 'kill-server']));
    const until = async (pred: (s: string) => boolean, what: string) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const s = tmux('capture-pane', '-p', '-J');
        if (pred(s)) return s;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await until((s) => s.includes('Did you mean history?'), 'the question');
    tmux('send-keys', 'Enter');
    const screen = await until((s) => s.includes('[exit '), 'the command to end');
    // `history` ran: it names the pod that is not running.
    expect(screen).toContain('yoi: pod nobody is not running');
    expect(screen).toContain('[exit 1]');
  });
});
