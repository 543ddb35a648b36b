import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject } from '../support/startTestPod.js';
import { BIN, startPodProcess } from '../support/runCli.js';

/**
 * `yoi attach` end to end: the built CLI in a real terminal (tmux) against a real pod process on
 * the echo provider. Keys go in with `send-keys`, pastes with `paste-buffer -p` (bracketed, as
 * a terminal sends them), and the screen is read back with `capture-pane`.
 */
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const describeTmux = hasTmux ? describe : describe.skip;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function session(name: string) {
  const dir = makeProject({ 'README.md': '# Demo\nhello from the readme\n' });
  const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
  const pod = await startPodProcess(['--name', name], { cwd: dir, env });
  cleanups.push(() => pod.child.kill('SIGKILL'));
  const sock = path.join(dir, 'tmux.sock');
  const tmux = (...args: string[]) => execFileSync('tmux', ['-S', sock, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  // After yoi exits the pane shows what later input looks like (`cat -v`): a terminal left in
  // bracketed-paste mode would show the ESC[200~ markers around a paste.
  const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const command = `env -u CI -u CONTINUOUS_INTEGRATION YOI_RUNTIME_DIR=${q(env.YOI_RUNTIME_DIR)} ${q(process.execPath)} ${q(BIN)} attach --pod ${name}; echo "[exit $?]"; exec cat -v`;
  tmux('new-session', '-d', '-x', '110', '-y', '40', '-c', dir, command);
  cleanups.push(() => spawnSync('tmux', ['-S', sock, 'kill-server']));
  const screen = () => tmux('capture-pane', '-p', '-J');
  const until = async (pred: (s: string) => boolean, what: string, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = screen();
      if (pred(s)) return s;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const paste = (text: string) => {
    const file = path.join(dir, 'paste.txt');
    fs.writeFileSync(file, text);
    tmux('load-buffer', file);
    tmux('paste-buffer', '-p', '-d');
  };
  return { dir, pod, tmux, screen, until, paste };
}

describeTmux('yoi attach in a terminal (tmux)', () => {
  it('sends typed text, a bracketed paste and @README.md; shows the chip, the echoed context and the status bar', async () => {
    const t = await session('tui');
    await t.until((s) => /● tui │ idle │ session [0-9a-f]{8}/.test(s), 'the status bar');
    t.tmux('send-keys', '-l', 'please review:');
    t.paste('alpha line\nbeta line\ngamma line\n');
    t.tmux('send-keys', '-l', ' and @README.md');
    await t.until((s) => s.includes('› please review:[Clipboard #1 | 32 chars, 3 lines] and @README.md'), 'the input with its chip');
    t.tmux('send-keys', 'Enter');
    const s = await t.until((x) => x.includes('hello from the readme') && /1 request · ↑\d+ ↓\d+/.test(x) && x.includes('│ idle │'), 'the echoed reply');
    const lines = s.split('\n').map((l) => l.trimEnd());
    expect(lines).toContain('❯ please review:[Clipboard #1 | 32 chars, 3 lines] and @README.md');
    const reply = lines.indexOf('  [user] please review:alpha line');
    expect(lines.slice(reply, reply + 7)).toEqual([
      '  [user] please review:alpha line', '  beta line', '  gamma line', '   and', '  [system] [File: README.md]', '  # Demo', '  hello from the readme',
    ]);
    expect(s).toMatch(/● tui │ idle │ session [0-9a-f]{8} │ tokens ↑\d+ ↓\d+/);

    // Ctrl-C twice quits; the pod keeps running and the terminal is back to normal.
    t.tmux('send-keys', 'C-c');
    await t.until((x) => x.includes('press Ctrl-C again to quit'), 'the quit confirmation');
    t.tmux('send-keys', 'C-c');
    await t.until((x) => x.includes('[exit 0]'), 'the client to exit');
    expect(t.screen()).toContain('detached from pod tui (it keeps running)');
    t.paste('after\n');
    await t.until((x) => x.includes('after'), 'the paste echoed by cat');
    expect(t.screen()).not.toMatch(/\[20[01]~/);
    expect(t.pod.child.exitCode).toBeNull();
  });

  it('restores the terminal when killed by a signal', async () => {
    const t = await session('sig');
    await t.until((s) => s.includes('● sig │ idle'), 'the status bar');
    const shell = t.tmux('display-message', '-p', '#{pane_pid}').trim();
    const child = execFileSync('pgrep', ['-P', shell], { encoding: 'utf8' }).trim().split('\n')[0];
    process.kill(Number(child), 'SIGTERM');
    await t.until((x) => x.includes('[exit 143]'), 'the client to exit');
    t.paste('pasted\n');
    await t.until((x) => x.includes('pasted'), 'the paste echoed by cat');
    expect(t.screen()).not.toMatch(/\[20[01]~/);
  });
});

if (!hasTmux) {
  describe('yoi attach in a terminal', () => {
    it.skip('needs tmux, which is not installed here (apt-get install -y tmux; .ci/run installs it)', () => undefined);
  });
}
