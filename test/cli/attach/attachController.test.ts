import { afterEach, describe, expect, it } from '@jest/globals';
import { startTestPod, type TestPod } from '../../support/startTestPod.js';
import { stripVTControlCharacters } from 'node:util';
import { hintLine as styledHint } from '../../../cli/attach/statusLine.js';
import type { AttachState } from '../../../cli/attach/AttachStore.js';
import { attachTo, inputText, texts, type AttachHarness } from './attachHarness.js';

const hintLine = (s: AttachState) => stripVTControlCharacters(styledHint(s));

let tp: TestPod | undefined;
let h: AttachHarness | undefined;
afterEach(async () => {
  await h?.stop();
  await tp?.stop();
  h = undefined;
  tp = undefined;
});

const scripted = (replies: unknown[]) => ({
  files: { 'replies.json': JSON.stringify(replies), 'README.md': '# Demo\nhello from the readme\n' },
  config: { model: { provider: 'scripted', script: 'replies.json' } },
});
const has = (s: Parameters<typeof texts>[0], needle: string) => texts(s).some((t) => t.includes(needle));

describe('yoi attach against a real pod', () => {
  it('sends typed text, a paste chip and an @file as typed segments, and shows the echoed context', async () => {
    tp = await startTestPod({ files: { 'README.md': '# Demo\nhello from the readme\n' } });
    h = await attachTo(tp.socket);
    await h.until((s) => s.connection === 'connected' && s.transcript.status === 'idle');
    h.type('look at this:');
    h.paste('line one\r\nline two\r\n');
    h.type(' and @README.md');
    expect(inputText(h.store.getState())).toMatch(/^look at this:\[paste #\d+\] and @README\.md$/);
    h.type('\r');
    const s = await h.until((st) => has(st, '[system] [File: README.md]') && st.transcript.status === 'idle');
    const user = s.transcript.blocks.find((b) => b.kind === 'user');
    expect(user?.kind === 'user' && user.segments).toEqual([
      { kind: 'text', content: 'look at this:' },
      { kind: 'paste', id: expect.any(Number), chars: 18, lines: 2, content: 'line one\nline two\n' },
      { kind: 'text', content: ' and ' },
      { kind: 'file_ref', path: 'README.md' },
    ]);
    const reply = texts(s).find((t) => t.startsWith('assistant:'));
    expect(reply).toBe(
      'assistant: [user] look at this:line one\nline two\n and \n[system] [File: README.md]\n# Demo\nhello from the readme\n',
    );
    expect(inputText(s)).toBe('');
    expect(s.transcript.usage.context).toBeGreaterThan(0);
  });

  it('completes @ references from the pod, cycling with Tab', async () => {
    tp = await startTestPod({ files: { 'README.md': 'r', 'READ_LATER.txt': 'l' } });
    h = await attachTo(tp.socket);
    await h.until((s) => s.connection === 'connected');
    h.type('see @REA');
    const s = await h.until((st) => (st.completion?.items.length ?? 0) >= 2);
    expect([...s.completion!.items].sort()).toEqual(['README.md', 'READ_LATER.txt']);
    h.type('\t');
    const first = inputText(h.store.getState());
    h.type('\t');
    const second = inputText(h.store.getState());
    expect([first, second].sort()).toEqual(['see @README.md', 'see @READ_LATER.txt']);
  });

  it('queues Enter while a run is active and sends it when the run ends', async () => {
    tp = await startTestPod(scripted([{ delay_ms: 1500, text: 'slow answer' }]));
    h = await attachTo(tp.socket);
    await h.until((s) => s.connection === 'connected');
    h.type('first\r');
    await h.until((s) => s.transcript.status === 'running');
    h.type('second\r');
    const queued = h.store.getState();
    expect(queued.queue).toEqual([[{ kind: 'text', content: 'second' }]]);
    expect(queued.notice).toMatch(/queued/);
    const s = await h.until((st) => has(st, 'assistant: [user] second') && st.transcript.status === 'idle');
    expect(s.queue).toEqual([]);
    expect(texts(s).filter((t) => t.startsWith('user:') || t.startsWith('assistant:'))).toEqual([
      'user: [{"kind":"text","content":"first"}]',
      'assistant: slow answer',
      'user: [{"kind":"text","content":"second"}]',
      'assistant: [user] second',
    ]);
  });

  it('Ctrl-C pauses a running turn, an empty Enter resumes it, Ctrl-X cancels it', async () => {
    tp = await startTestPod(
      scripted([
        { delay_ms: 20_000, text: 'never' },
        { delay_ms: 20_000, text: 'never either' },
      ]),
    );
    h = await attachTo(tp.socket);
    await h.until((s) => s.connection === 'connected');
    h.type('go\r');
    await h.until((s) => s.transcript.status === 'running');
    h.type('\x03');
    await h.until((s) => s.transcript.status === 'paused' && has(s, '· paused'));
    h.type('\r');
    await h.until((s) => s.transcript.status === 'running');
    h.type('\x18');
    const s = await h.until((st) => st.transcript.status === 'idle' && has(st, '· cancelled'));
    expect(h.quits).toBe(0);
    expect(s.transcript.blocks.filter((b) => b.kind === 'note' && b.tone === 'error')).toEqual([]);
  });

  it('Ctrl-X with no run and Ctrl-C once say what happened; Ctrl-C twice quits and leaves the pod running', async () => {
    tp = await startTestPod();
    h = await attachTo(tp.socket);
    await h.until((s) => s.connection === 'connected');
    h.type('\x18');
    expect(h.store.getState().notice).toBe('nothing to cancel: no run is active');
    h.type('\x03');
    expect(h.store.getState().notice).toMatch(/Ctrl-C again to quit/);
    expect(h.quits).toBe(0);
    h.type('\x03');
    expect(h.quits).toBe(1);
    const other = await tp.connect();
    expect(other.welcome?.status).toBe('idle');
    await other.close();
  });

  it('Ctrl-C twice more than 3 s apart does not quit', async () => {
    tp = await startTestPod();
    let now = 1_000_000;
    h = await attachTo(tp.socket, { now: () => now });
    await h.until((s) => s.connection === 'connected');
    h.type('\x03');
    now += 3500;
    h.type('\x03');
    expect(h.quits).toBe(0);
    now += 100;
    h.type('\x03');
    expect(h.quits).toBe(1);
  });

  it('Ctrl-D asks first, saying the pod will shut down; a second Ctrl-D shuts it down and quits', async () => {
    tp = await startTestPod(scripted([{ delay_ms: 20_000, text: 'x' }]));
    h = await attachTo(tp.socket);
    await h.until((s) => s.connection === 'connected');
    h.type('go\r');
    await h.until((s) => s.transcript.status === 'running');
    h.type('\x04');
    expect(h.store.getState().question).toEqual({ kind: 'shutdown' });
    expect(hintLine(h.store.getState())).toMatch(
      /^Shut down pod test\? It stops for all clients .*press Ctrl-D again or y: shut down · n\/Esc: keep it$/,
    );
    // Esc keeps the pod; so does any other key, which then does what it always does.
    h.type('\x1b');
    await h.until((s) => s.question === undefined && s.notice === 'the pod keeps running');
    h.type('\x04');
    h.type('x');
    expect(h.store.getState().question).toBeUndefined();
    expect(inputText(h.store.getState())).toBe('x');
    expect(tp.pod.status).toBe('running');
    h.type('\x04');
    h.type('\x04');
    await h.until(() => h!.quits === 1);
    await tp.pod.closed;
    expect(h.controller.podShutDown).toBe(true);
  });

  it('reconnects when the pod restarts and reloads its history', async () => {
    tp = await startTestPod({ name: 'again' });
    h = await attachTo(tp.socket);
    await h.until((s) => s.connection === 'connected');
    h.type('before\r');
    await h.until((s) => has(s, 'assistant: [user] before'));
    await tp.stop();
    await h.until((s) => s.connection === 'reconnecting');
    h.type('while away\r'); // queued until the pod is back
    expect(h.store.getState().queue).toHaveLength(1);
    h.type('\x03');
    expect(h.store.getState().notice).toBe(
      'press Ctrl-C again to quit (the pod keeps running; 1 queued input is not sent)',
    );
    tp = await startTestPod({ name: 'again', dir: tp.dir, resume: true });
    const s = await h.until(
      (st) =>
        st.connection === 'connected' && has(st, 'assistant: [user] while away') && st.transcript.status === 'idle',
      15_000,
    );
    expect(has(s, 'assistant: [user] before')).toBe(true); // restored session, replayed from history
    expect(has(s, '[pod] shut down')).toBe(true);
  });
});
