import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { makeProject } from '../support/startTestPod.js';
import { startPodProcess, yoiAsync } from '../support/runCli.js';
import { attachInTmux, hasTmux, KEYS } from '../support/tmux.js';

/**
 * `yoi attach` end to end: the built CLI in a real terminal (tmux) against a real pod process on
 * the echo provider. Keys go in as the bytes a terminal sends (`send-keys -H`), pastes with
 * `paste-buffer -p` (bracketed, as a terminal sends them), and the screen is read back with
 * `capture-pane`. More keys are covered in attachKeys.e2e.test.ts.
 */
const describeTmux = hasTmux ? describe : describe.skip;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function session(name: string) {
  const dir = makeProject({ 'README.md': '# Demo\nhello from the readme\n' });
  const env = { YOI_RUNTIME_DIR: path.join(dir, 'run'), XDG_STATE_HOME: path.join(dir, 'state') };
  const pod = await startPodProcess(['--name', name], { cwd: dir, env });
  cleanups.push(() => pod.child.kill('SIGKILL'));
  const pane = attachInTmux({ dir, args: ['--pod', name], env });
  cleanups.push(() => pane.kill());
  return { dir, pod, screen: pane.screen, until: pane.until, paste: pane.paste, pane };
}

describeTmux('yoi attach in a terminal (tmux)', () => {
  it('sends typed text, a bracketed paste and @README.md; shows the chip, the echoed context and the status bar', async () => {
    const t = await session('tui');
    await t.until((s) => /● tui │ idle │ session [0-9a-f]{8}/.test(s), 'the status bar');
    t.pane.type('please review:');
    t.paste('alpha line\nbeta line\ngamma line\n');
    t.pane.type(' and @README.md');
    await t.until(
      (s) => s.includes('› please review:[Clipboard #1 | 32 chars, 3 lines] and @README.md'),
      'the input with its chip',
    );
    t.pane.bytes(KEYS.enter);
    const s = await t.until(
      (x) => x.includes('hello from the readme') && /1 request · ↑\d+ ↓\d+/.test(x) && x.includes('│ idle │'),
      'the echoed reply',
    );
    const lines = s.split('\n').map((l) => l.trimEnd());
    expect(lines).toContain('❯ please review:[Clipboard #1 | 32 chars, 3 lines] and @README.md');
    const reply = lines.indexOf('  [user] please review:alpha line');
    expect(lines.slice(reply, reply + 7)).toEqual([
      '  [user] please review:alpha line',
      '  beta line',
      '  gamma line',
      '   and',
      '  [system] [File: README.md]',
      '  # Demo',
      '  hello from the readme',
    ]);
    expect(s).toMatch(/● tui │ idle │ session [0-9a-f]{8} │ tokens ↑\d+ ↓\d+/);

    // Ctrl-C twice quits; the pod keeps running and the terminal is back to normal.
    t.pane.bytes(KEYS.ctrlC);
    await t.until((x) => x.includes('press Ctrl-C again to quit'), 'the quit confirmation');
    t.pane.bytes(KEYS.ctrlC);
    await t.until((x) => x.includes('[exit 0]'), 'the client to exit');
    expect(t.screen()).toContain('detached from pod tui (it keeps running)');
    t.paste('after\n');
    await t.until((x) => x.includes('after'), 'the paste echoed by cat');
    expect(t.screen()).not.toMatch(/\[20[01]~/);
    expect(t.pod.child.exitCode).toBeNull();
  });

  it('attaches to a pod whose history holds a 9 MiB piped paste: its start, a note, and input still goes', async () => {
    const dir = makeProject();
    const env = { YOI_RUNTIME_DIR: path.join(dir, 'run'), XDG_STATE_HOME: path.join(dir, 'state') };
    const pod = await startPodProcess(['--name', 'big'], { cwd: dir, env });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    const paste = 'b'.repeat(9 * 1024 * 1024);
    const sent = await yoiAsync(['send', '--pod', 'big', '--quiet'], {
      cwd: dir,
      env,
      input: paste,
      timeoutMs: 90_000,
    });
    expect(sent.status).toBe(0);
    const history = async () => {
      const r = await yoiAsync(['history', '--pod', 'big', '--json'], { cwd: dir, env, timeoutMs: 30_000 });
      return (JSON.parse(r.stdout) as { role?: string; content?: { text?: string }[] }[]).map((i) => ({
        role: i.role,
        chars: (i.content ?? []).reduce((n, p) => n + (p.text ?? '').length, 0),
      }));
    };
    const before = await history();
    const reply = before.find((i) => i.role === 'assistant')!;
    expect(reply.chars).toBeGreaterThan(paste.length); // the echo: `[user] ` and the paste

    // The reply was markdown-lexed whole before: marked overflowed its stack and attach exited 1.
    const pane = attachInTmux({ dir, args: ['--pod', 'big'], env });
    cleanups.push(() => pane.kill());
    const note = `… ${(reply.chars - 256 * 1024).toLocaleString('en-US')} more characters not shown (yoi history prints the whole message)`;
    await pane.until((s) => s.includes(note) && s.includes('● big │ idle'), 'the note under the cut reply');
    pane.bytes('\x1b[1;5H'); // Ctrl-Home: the top of the transcript
    const top = await pane.until((s) => s.includes('[user] bbbb'), 'the start of the reply');
    expect(top).toContain('❯ [Clipboard #1 | 9437184 chars, 1 lines]');
    expect(top).toContain(`  [user] ${'b'.repeat(110 - 2 - 7)}`);

    pane.bytes('\x1b[1;5F'); // Ctrl-End
    pane.type('still here');
    pane.bytes(KEYS.enter);
    await pane.until((s) => s.includes('[user] still here') && s.includes('│ idle │'), 'the reply to new input');
    expect(pane.screen()).not.toContain('[exit');
    // Nothing of the big message is lost: the history holds it whole, and the new exchange after it.
    const after = await history();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.length).toBeGreaterThan(before.length);
    expect(pod.child.exitCode).toBeNull();
  }, 180_000);

  it('restores the terminal when killed by a signal', async () => {
    const t = await session('sig');
    await t.until((s) => s.includes('● sig │ idle'), 'the status bar');
    const shell = String(t.pane.panePid());
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
