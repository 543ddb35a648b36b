import { afterEach, describe, expect, it } from '@jest/globals';
import { render, cleanup } from 'ink-testing-library';
import { stripVTControlCharacters } from 'node:util';
import { AttachApp } from '../../../cli/attach/AttachApp.js';
import { AttachController } from '../../../cli/attach/AttachController.js';
import { AttachStore, initialAttachState, type AttachState } from '../../../cli/attach/AttachStore.js';
import { InputBuffer } from '../../../cli/attach/InputBuffer.js';
import { reduceEvents } from '../../../cli/attach/transcriptReducer.js';
import type { Event } from '../../../core/protocol/index.js';

afterEach(() => cleanup());

const tick = () => new Promise((r) => setTimeout(r, 20));

function setup(
  events: Event[],
  patch: Partial<AttachState> = {},
  size = { columns: 70, rows: 16 },
  now?: () => number,
) {
  const store = new AttachStore({
    ...initialAttachState,
    connection: 'connected',
    transcript: reduceEvents(initialAttachState.transcript, events),
    ...patch,
  });
  // Not started: only its scrolling and toggles are used here.
  const controller = new AttachController({ socketPath: '/nonexistent', store, onQuit: () => undefined });
  const app = render(
    <AttachApp store={store} podName="p" onLayout={(l) => (controller.layout = l)} {...size} now={now} />,
  );
  const screen = () => stripVTControlCharacters(app.lastFrame() ?? '');
  return { store, controller, screen };
}

const welcome: Event = {
  event: 'welcome',
  data: {
    protocol_version: 2,
    pod_name: 'reviewer',
    session_id: '0192f0e8-4d84-7d6e-a000-000000000001',
    status: 'running',
    segment_kinds: [],
    pod_event_kinds: [],
  },
};

describe('the attach view', () => {
  it('shows the status bar, a typed user message with its chip and references, and the input with chips', async () => {
    const { screen } = setup(
      [
        welcome,
        {
          event: 'user_message',
          data: {
            segments: [
              { kind: 'text', content: 'check ' },
              { kind: 'paste', id: 2, chars: 10, lines: 3, content: 'a\nb\nc\nxxxx' },
              { kind: 'file_ref', path: 'src/x.ts' },
              { kind: 'knowledge_ref', slug: 'style' },
            ],
          },
        },
        { event: 'turn_start', data: { turn: 0 } },
        { event: 'text_delta', data: { text: 'on it' } },
        { event: 'usage', data: { input_tokens: 2345, output_tokens: 67 } },
        {
          event: 'alert',
          data: { level: 'warn', source: 'pod', message: 'knowledge_ref #style was not resolved', timestamp_ms: 1 },
        },
      ],
      {
        input: InputBuffer.empty
          .insertText('more ')
          .insertPaste({ kind: 'paste', id: 4, chars: 3, lines: 1, content: 'abc' })
          .insertText(' @README.md'),
      },
    );
    await tick();
    const text = screen();
    expect(text).toContain('❯ check [Clipboard #2 | 10 chars, 3 lines]@src/x.ts #style');
    expect(text).toContain('  on it');
    expect(text).toContain('[notice] pod: knowledge_ref #style was not resolved');
    expect(text).toContain('› more [Clipboard #4 | 3 chars, 1 lines] @README.md');
    expect(text).toContain('● reviewer │ running │ session 0192f0e8 │ tokens ↑2.3k ↓67');
  });

  it('shows tool calls on one line, and with arguments and output after Ctrl-O', async () => {
    const { controller, screen } = setup([
      welcome,
      { event: 'tool_call_start', data: { id: 'c1', name: 'Read' } },
      { event: 'tool_call_done', data: { id: 'c1', name: 'Read', arguments: '{"path":"notes.txt"}' } },
      {
        event: 'tool_result',
        data: { id: 'c1', summary: 'Read 2 lines', output: 'first line\nsecond line', is_error: false },
      },
    ]);
    await tick();
    expect(screen()).toContain('✓ Read {"path":"notes.txt"} → Read 2 lines');
    expect(screen()).not.toContain('second line');
    controller.handle({ type: 'toggle-tools' });
    await tick();
    expect(screen()).toContain('"path": "notes.txt"');
    expect(screen()).toContain('│ second line');
  });

  it('scrolls by pages and to either end, and says when it is scrolled', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => `line ${String(i).padStart(2, '0')}`).join('\n');
    const { controller, store, screen } = setup([welcome, { event: 'text_delta', data: { text: lines } }]);
    await tick();
    expect(screen()).toContain('line 59');
    expect(screen()).not.toContain('line 40');
    controller.handle({ type: 'scroll', by: 'page-up' });
    await tick();
    expect(screen()).toContain('scrolled');
    expect(screen()).not.toContain('line 59');
    controller.handle({ type: 'scroll', by: 'top' });
    await tick();
    expect(screen()).toContain('line 00');
    // New output while scrolled does not move the view.
    store.update((s) => ({
      ...s,
      transcript: reduceEvents(s.transcript, [{ event: 'text_delta', data: { text: '\nline 60' } }]),
    }));
    await tick();
    expect(screen()).toContain('line 00');
    controller.handle({ type: 'scroll', by: 'bottom' });
    await tick();
    expect(screen()).toContain('line 60');
    expect(screen()).not.toContain('scrolled');
  });

  it('lists completion candidates under the input and shows what is queued', async () => {
    const { screen } = setup([welcome], {
      completion: {
        kind: 'file_ref',
        sigil: '@',
        prefix: 'R',
        start: 0,
        items: ['README.md', 'RELEASE.md'],
        selected: 1,
      },
      queue: [[{ kind: 'text', content: 'next question' }]],
    });
    await tick();
    expect(screen()).toContain('Tab: @README.md  @RELEASE.md');
    expect(screen()).toContain('⧗ queued: next question');
    expect(screen()).toContain('1 queued');
  });

  it('wraps a long tool call over a few lines instead of cutting it', async () => {
    const args = JSON.stringify({
      pattern: 'function\\s+handle[A-Z]\\w+',
      path: 'src/some/deeply/nested/directory',
      glob: '*.ts',
    });
    const { screen } = setup(
      [
        welcome,
        { event: 'tool_call_start', data: { id: 'c1', name: 'Grep' } },
        { event: 'tool_call_done', data: { id: 'c1', name: 'Grep', arguments: args } },
        {
          event: 'tool_result',
          data: { id: 'c1', summary: 'Found 3 matches in 2 files', output: undefined, is_error: false },
        },
      ],
      {},
      { columns: 50, rows: 16 },
    );
    await tick();
    const lines = screen()
      .split('\n')
      .map((l) => l.trimEnd());
    const at = lines.findIndex((l) => l.includes('✓ Grep'));
    const call = lines
      .slice(at, at + 4)
      .join(' ')
      .replace(/\s+/g, ' ');
    expect(call).toContain('nested/directory');
    expect(call).toContain('→ Found 3 matches in 2 files');
    expect(lines.slice(at, at + 4).every((l) => l.length <= 50)).toBe(true);
  });

  it('keeps a call with megabytes of arguments to a few lines, its outcome in sight', async () => {
    const args = JSON.stringify({ file_path: 'big.txt', content: 'x'.repeat(2_000_000) });
    const { screen } = setup([
      welcome,
      { event: 'tool_call_done', data: { id: 'w', name: 'Write', arguments: args } },
      {
        event: 'tool_result',
        data: { id: 'w', summary: 'Created big.txt (2000031 bytes)', output: undefined, is_error: false },
      },
    ]);
    await tick();
    const lines = screen()
      .split('\n')
      .map((l) => l.trimEnd());
    const at = lines.findIndex((l) => l.includes('✓ Write'));
    const call = lines.slice(at, at + 5);
    expect(call.slice(0, 4).join(' ')).toContain('→ Created big.txt (2000031 bytes)');
    expect(call[4] ?? '').not.toMatch(/^ {4}x/);
  });

  it('shows a spinner with the elapsed time and what the run does while it is live', async () => {
    let now = 1_000_000;
    const { store, screen } = setup(
      [
        welcome,
        { event: 'tool_call_start', data: { id: 'c1', name: 'Read' } },
        { event: 'tool_call_done', data: { id: 'c1', name: 'Read', arguments: '{}' } },
      ],
      { runSince: now - 75_000 },
      { columns: 70, rows: 16 },
      () => now,
    );
    await tick();
    expect(screen()).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] running Read… 1m 15s · Ctrl-C pauses/);
    now += 2000;
    // The spinner redraws on its own timer: wait for the frame that shows the new time.
    for (let i = 0; i < 500 && !screen().includes('1m 17s'); i++) await tick();
    expect(screen()).toContain('running Read… 1m 17s');
    store.update((s) => ({
      ...s,
      transcript: reduceEvents(s.transcript, [{ event: 'run_end', data: { result: 'finished' } }]),
    }));
    await tick();
    expect(screen()).not.toMatch(/running Read|thinking/);
  });

  it('asks before shutting the pod down and before abandoning a paused run, in the hint line', async () => {
    const { store, screen } = setup([welcome], { question: { kind: 'shutdown' } }, { columns: 140, rows: 16 });
    await tick();
    expect(screen()).toContain(
      'Shut down pod reviewer? It stops for all clients (Ctrl-C twice only detaches) · press Ctrl-D again or y: shut down · n/Esc: keep it',
    );
    store.update((s) => ({ ...s, question: { kind: 'abandon', segments: [] } }));
    await tick();
    expect(screen()).toContain(
      'Run paused. Enter/y: abandon it and send this · r: resume it, send this after · n/Esc: keep editing',
    );
  });
});
