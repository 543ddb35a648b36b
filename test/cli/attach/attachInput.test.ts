import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultPlugins } from '../../../plugins/index.js';
import { startTestPod, type TestPod } from '../../support/startTestPod.js';
import { waitCalls, waitTool } from '../../support/testPlugins.js';
import { attachTo, inputText, texts, type AttachHarness } from './attachHarness.js';

let tp: TestPod | undefined;
const harnesses: AttachHarness[] = [];
beforeEach(() => {
  waitCalls.length = 0;
});
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.stop();
  await tp?.stop();
  tp = undefined;
});

const attach = async (socket: string, env?: NodeJS.ProcessEnv) => {
  const h = await attachTo(socket, { env });
  harnesses.push(h);
  await h.until((s) => s.connection === 'connected' && s.transcript.status !== undefined);
  return h;
};
const scripted = (replies: unknown[], files: Record<string, string> = {}) => ({
  files: { 'replies.json': JSON.stringify(replies), ...files },
  config: { model: { provider: 'scripted', script: 'replies.json' } },
  plugins: [...defaultPlugins(), waitTool()],
});
const has = (s: Parameters<typeof texts>[0], needle: string) => texts(s).some((t) => t.includes(needle));
const UP = '\x1b[A';
const DOWN = '\x1b[B';

describe('editing keys, as the bytes a terminal sends', () => {
  it('Ctrl-W, Ctrl-U, Ctrl-K, Ctrl-A/E, Alt-B/F, Alt-D and Ctrl-Y edit the input like readline', async () => {
    tp = await startTestPod();
    const h = await attach(tp.socket);
    const input = () => inputText(h.store.getState());
    h.type('make the big world');
    h.type('\x17'); // Ctrl-W
    expect(input()).toBe('make the big ');
    h.type('\x19world'); // Ctrl-Y puts "world" back, then more typing
    expect(input()).toBe('make the big worldworld');
    h.type('\x1bb\x1bb\x1bd'); // Alt-B twice, Alt-D
    expect(input()).toBe('make the  worldworld');
    h.type('\x01>\x05<'); // Ctrl-A, Ctrl-E
    expect(input()).toBe('>make the  worldworld<');
    h.type('\x01\x1bf\x1bf\x0b'); // Alt-F twice, Ctrl-K
    expect(input()).toBe('>make the');
    h.type('\x15'); // Ctrl-U
    expect(input()).toBe('');
  });
});

describe('input history', () => {
  it('Up and Down recall earlier inputs with their chips, kept per project across clients', async () => {
    tp = await startTestPod();
    const env = { XDG_STATE_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-state-')) };
    const h = await attach(tp.socket, env);
    h.type('first\r');
    await h.until((s) => has(s, 'assistant: [user] first') && s.transcript.status === 'idle');
    h.type('see ');
    h.paste('pasted\nblock');
    h.type(' @README.md\r');
    await h.until((s) => has(s, 'assistant: [user] see pasted') && s.transcript.status === 'idle');
    h.type('draft');
    h.type(UP);
    expect(inputText(h.store.getState())).toMatch(/^see \[paste #\d+\] @README\.md$/);
    h.type(UP);
    expect(inputText(h.store.getState())).toBe('first');
    h.type(UP); // the oldest: Up moves the cursor only
    expect(inputText(h.store.getState())).toBe('first');
    h.type(DOWN);
    h.type(DOWN);
    expect(inputText(h.store.getState())).toBe('draft');

    // A recalled input sends the same segments again.
    h.type('\x15');
    h.type(UP);
    h.type('\r');
    await h.until(
      (s) =>
        texts(s).filter((t) => t.startsWith('assistant: [user] see pasted')).length === 2 &&
        s.transcript.status === 'idle',
    );
    const users = h.store
      .getState()
      .transcript.blocks.flatMap((b) => (b.kind === 'user' ? [JSON.stringify(b.segments)] : []));
    expect(users[2]).toBe(users[1]);

    // Another client of the same project finds them; one with another state dir (another user) does not.
    const again = await attach(tp.socket, env);
    await again.until((s) => s.transcript.blocks.length > 0); // the history names the project
    again.type(UP);
    expect(inputText(again.store.getState())).toMatch(/^see \[paste #\d+\] @README\.md$/);
    const stranger = await attach(tp.socket);
    await stranger.until((s) => s.transcript.blocks.length > 0);
    stranger.type(UP);
    expect(inputText(stranger.store.getState())).toBe('');
  });

  it('Up inside a multi-line input moves between its lines before it recalls anything', async () => {
    tp = await startTestPod();
    const h = await attach(tp.socket);
    h.type('old\r');
    await h.until((s) => s.transcript.status === 'idle' && has(s, 'assistant: [user] old'));
    h.type('line one\x1b\rline two');
    h.type(UP);
    expect(inputText(h.store.getState())).toBe('line one\nline two');
    expect(h.store.getState().input.onFirstLine).toBe(true);
    h.type(UP);
    expect(inputText(h.store.getState())).toBe('old');
    h.type(DOWN);
    expect(inputText(h.store.getState())).toBe('line one\nline two');
  });
});

describe('completion', () => {
  it('Tab in the same chunk as the text completes once the candidates arrive', async () => {
    tp = await startTestPod({ files: { 'README.md': 'r', 'src/main.ts': 'm' } });
    const h = await attach(tp.socket);
    h.type('see @REA\t');
    await h.until((s) => inputText(s) === 'see @README.md');
    h.type(' and @sr\t');
    await h.until((s) => inputText(s) === 'see @README.md and @src/');
  });
});

describe('Enter while paused', () => {
  it('asks first; n keeps the input and the paused run; Enter again abandons the run (its open call is closed) and sends', async () => {
    tp = await startTestPod(scripted([{ tool_calls: [{ name: 'Wait', arguments: { ms: 30_000 } }] }]));
    const h = await attach(tp.socket);
    h.type('go\r');
    await h.until((s) => s.transcript.blocks.some((b) => b.kind === 'tool' && b.state === 'running'));
    h.type('\x03');
    await h.until((s) => s.transcript.status === 'paused');
    h.type('instead\r');
    expect(h.store.getState().question).toEqual({ kind: 'abandon', segments: [{ kind: 'text', content: 'instead' }] });
    h.type('n');
    expect(h.store.getState().question).toBeUndefined();
    expect(inputText(h.store.getState())).toBe('instead');
    expect(tp.pod.status).toBe('paused');
    h.type('\r');
    h.type('\r');
    const s = await h.until(
      (st) => st.transcript.status === 'idle' && has(st, 'assistant: ') && has(st, '[user] instead'),
    );
    expect(inputText(s)).toBe('');
    expect(waitCalls).toHaveLength(1); // the paused call was closed, not run again
    const items = tp.pod.controller.history.map((i) => JSON.stringify(i));
    expect(items.some((i) => i.includes('[Interrupted by user]'))).toBe(true);
  });

  it('r resumes the paused run and sends the input when it ends', async () => {
    tp = await startTestPod(scripted([{ delay_ms: 30_000, text: 'never' }, { text: 'resumed answer' }]));
    const h = await attach(tp.socket);
    h.type('go\r');
    await h.until((s) => s.transcript.status === 'running');
    h.type('\x03');
    await h.until((s) => s.transcript.status === 'paused');
    h.type('afterwards\r');
    expect(h.store.getState().question?.kind).toBe('abandon');
    h.type('r');
    const s = await h.until((st) => st.transcript.status === 'idle' && has(st, 'assistant: [user] afterwards'));
    const said = texts(s).filter((t) => t.startsWith('assistant:'));
    expect(said).toEqual(['assistant: resumed answer', expect.stringMatching(/^assistant: \[user\] afterwards/)]);
  });
});
