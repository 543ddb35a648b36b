import { afterEach, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { UnknownSegment } from '../../core/protocol/index.js';
import { envResolver } from '../../examples/env-resolver/envResolver.js';
import { defaultPlugins } from '../../plugins/index.js';
import { startTestPod, text, type TestPod, childReporter } from '../support/startTestPod.js';
import { waitCalls, waitTool } from '../support/testPlugins.js';
import { attachInTmux, hasTmux, KEYS, lines, type TmuxPane } from '../support/tmux.js';

/**
 * The keys and views of `yoi attach` as a user meets them: the built CLI in tmux, keys written
 * as the bytes a terminal sends, the screen read back with capture-pane. The pods run in this
 * process (real pods on real sockets, `attach --socket`), so a test can drive them from the side.
 */
const describeTmux = hasTmux ? describe : describe.skip;
const E2E_MS = 180_000;

let tp: TestPod | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  await tp?.stop();
  tp = undefined;
});

async function open(pod: TestPod, opts: { env?: Record<string, string>; name?: string } = {}): Promise<TmuxPane> {
  const env = { YOI_RUNTIME_DIR: pod.runtimeDir, XDG_STATE_HOME: path.join(pod.dir, 'state'), ...opts.env };
  const pane = attachInTmux({ dir: pod.dir, args: ['--socket', pod.socket], env, name: opts.name });
  cleanups.push(() => pane.kill());
  await pane.until((s) => /● e2e │ (idle|running|paused) │ session/.test(s), 'the status bar');
  return pane;
}
const inputLine = (s: string) => lines(s).find((l) => l.startsWith('›')) ?? '';
const scripted = (replies: unknown[], files: Record<string, string> = {}) =>
  startTestPod({
    name: 'e2e',
    files: { 'replies.json': JSON.stringify(replies), ...files },
    config: { model: { provider: 'scripted', script: 'replies.json' } },
    plugins: [...defaultPlugins(), waitTool()],
  });
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /;

describeTmux('yoi attach keys and views in a terminal (tmux)', () => {
  it(
    'while a run streams: a spinner with the elapsed time and the tool it runs, a long call wrapped, then the reply as markdown',
    async () => {
      const note = 'a long argument that does not fit on one line '.repeat(3).trim();
      const reply =
        '# Plan\n\nSome **bold** and *em*:\n\n- one\n- two\n\n```ts\nconst answer: number = 42;\n```\n\nDone.';
      tp = await scripted([
        { delay_ms: 2500, tool_calls: [{ name: 'Wait', arguments: { ms: 3000, note } }] },
        { chunks: [reply.slice(0, 40), reply.slice(40)] },
      ]);
      const pane = await open(tp);
      pane.type('go');
      pane.bytes(KEYS.enter);
      await pane.until(
        (s) => new RegExp(`${SPINNER.source}thinking… \\d+s · Ctrl-C pauses`).test(s),
        'the spinner while the model thinks',
      );
      const running = await pane.until(
        (s) => /running Wait… [1-9]\d*s · Ctrl-C pauses/.test(s),
        'the spinner naming the tool, a second on',
      );
      const screen = lines(running);
      const call = screen.findIndex((l) => l.startsWith('  ⋯ Wait {"ms":3000'));
      expect(call).toBeGreaterThanOrEqual(0);
      // The call wraps under its name instead of being cut at the edge.
      expect(screen[call + 1]).toMatch(/^ {4}\S/);
      expect(
        screen
          .slice(call, call + 3)
          .join(' ')
          .replace(/\s+/g, ' '),
      ).toContain('does not fit on one line"}');

      const done = await pane.until(
        (s) => s.includes('Done.') && s.includes('│ idle │') && !s.includes('**bold**'),
        'the reply rendered as markdown',
      );
      expect(lines(done)).toEqual(
        expect.arrayContaining([
          '  # Plan',
          '  Some bold and em:',
          '    * one',
          '    * two',
          '    const answer: number = 42;',
        ]),
      );
      expect(done).not.toMatch(/Ctrl-C pauses|```/);
      const styled = pane.styled();
      expect(styled).toMatch(/\x1b\[[\d;]*m\s*const\x1b\[/); // the keyword highlighted
      expect(styled).toMatch(/\x1b\[1m[^\n]*bold/);
    },
    E2E_MS,
  );

  it(
    'shows notifications and child reports as they arrive, expands them with Ctrl-O, and asks before Enter abandons a paused run',
    async () => {
      waitCalls.length = 0;
      tp = await scripted([{ tool_calls: [{ name: 'Wait', arguments: { ms: 60_000 } }] }]);
      const pane = await open(tp);
      pane.type('go');
      pane.bytes(KEYS.enter);
      await pane.until((s) => s.includes('running Wait…'), 'the tool to run');
      const c = await tp.connect();
      await c.request({ method: 'notify', params: { message: 'build finished\nall 212 tests passed' } });
      const kid = await childReporter(tp, 'kid');
      await kid.request({ method: 'pod_event', params: { kind: 'turn_ended', pod_name: 'kid' } });
      await kid.close();
      const live = await pane.until(
        (s) => s.includes('◆ child pod: Pod `kid` finished a turn.'),
        'the live notifications',
      );
      expect(lines(live)).toContain('  ◆ notification: build finished (+1 line, Ctrl-O shows them)');
      expect(live).toContain('running Wait…');
      pane.bytes(KEYS.ctrlO);
      await pane.until((s) => lines(s).includes('    │ all 212 tests passed'), 'the notification expanded');
      pane.bytes(KEYS.ctrlO);
      await pane.until((s) => !s.includes('│ all 212 tests passed'), 'it folded again');

      pane.bytes(KEYS.ctrlC);
      await pane.until((s) => s.includes('│ paused │'), 'the run to pause');
      pane.type('instead');
      pane.bytes(KEYS.enter);
      await pane.until(
        (s) =>
          s.includes(
            'Run paused. Enter/y: abandon it and send this · r: resume it, send this after · n/Esc: keep editing',
          ),
        'the question',
      );
      pane.type('n');
      const kept = await pane.until((s) => !s.includes('Run paused. Enter/y'), 'the question answered');
      expect(inputLine(kept)).toBe('› instead');
      expect(tp.pod.status).toBe('paused');
      pane.bytes(KEYS.enter);
      await pane.until((s) => s.includes('Run paused. Enter/y'), 'the question again');
      pane.bytes(KEYS.enter);
      const after = await pane.until(
        (s) => s.includes('[user] instead') && s.includes('│ idle │'),
        'the new input answered',
      );
      expect(lines(after)).toContain('❯ instead');
      expect(waitCalls).toHaveLength(1); // abandoned, not run again
      await c.close();
    },
    E2E_MS,
  );

  it(
    'edits like readline (Ctrl-W/Y/A/E/U/K, Alt-B/F), completes with a Tab sent with the text, recalls inputs with Up/Down in a later client, replays references with their spacing, and shows the cursor with NO_COLOR',
    async () => {
      tp = await startTestPod({ name: 'e2e', files: { 'README.md': '# Demo\nhello\n' } });
      const pane = await open(tp);
      const input = () => inputLine(pane.screen());
      const expectInput = (want: string, what: string) => pane.until(() => input() === want, `${what}: ${want}`);
      pane.type('make the big world');
      await expectInput('› make the big world', 'typed');
      pane.bytes(KEYS.ctrlW);
      await expectInput('› make the big', 'Ctrl-W');
      pane.bytes(KEYS.ctrlY);
      await expectInput('› make the big world', 'Ctrl-Y');
      pane.bytes(`${KEYS.ctrlA}>`);
      pane.bytes(`${KEYS.ctrlE}<`);
      await expectInput('› >make the big world<', 'Ctrl-A, Ctrl-E');
      pane.bytes(`${KEYS.altB}${KEYS.altB}_`);
      await expectInput('› >make the _big world<', 'Alt-B twice');
      pane.bytes(`${KEYS.altF}+`);
      await expectInput('› >make the _big+ world<', 'Alt-F');
      pane.bytes(KEYS.ctrlU);
      await expectInput('›  world<', 'Ctrl-U (to the line start)');
      pane.bytes(KEYS.ctrlK);
      await pane.until(() => input().startsWith('›  type a message'), 'Ctrl-K (to the line end)');

      pane.type('see @REA\t'); // one write: the Tab comes in the same chunk as the text
      await expectInput('› see @README.md', 'Tab completion');
      pane.bytes(KEYS.enter);
      await pane.until((s) => s.includes('[user] see') && s.includes('│ idle │'), 'the reply');
      pane.type('second');
      pane.bytes(KEYS.enter);
      await pane.until((s) => s.includes('[user] second') && s.includes('│ idle │'), 'the second reply');
      // What `yoi send --file README.md explain please` sends: references next to words, no spaces.
      const c = await tp.connect();
      await c.request({
        method: 'run',
        params: { input: [text('explain'), { kind: 'file_ref', path: 'README.md' }, text('please')] },
      });
      await pane.until((s) => s.includes('[user] explainplease'), "the other client's run");
      pane.bytes(KEYS.ctrlC);
      pane.bytes(KEYS.ctrlC);
      await pane.until((s) => s.includes('[exit 0]'), 'the client to quit');

      const later = await open(tp, { env: { NO_COLOR: '1' }, name: 'later' });
      const replayed = await later.until((s) => s.includes('❯ explain @README.md please'), 'the replayed references');
      expect(lines(replayed)).toContain('❯ see @README.md');
      const inputOf = () => inputLine(later.screen());
      later.bytes(KEYS.up);
      await later.until(() => inputOf() === '› second', 'Up');
      later.bytes(KEYS.up);
      await later.until(() => inputOf() === '› see @README.md', 'Up again');
      later.bytes(KEYS.down);
      await later.until(() => inputOf() === '› second', 'Down');
      later.bytes(KEYS.left);
      await later.until(() => /› secon\x1b\[7md/.test(later.styled()), 'the cursor on the last character');
      // No colours at all with NO_COLOR, and the cursor still shows (reverse video).
      expect(later.styled()).not.toMatch(/\x1b\[(?:[\d;]*;)?(?:3[0-7]|9[0-7]|4[0-7]|10[0-7]|38|48)(?:;[\d;]*)?m/);
      later.bytes(KEYS.down);
      await later.until(() => inputOf().startsWith('›  type a message'), 'Down back to the empty draft');
      await c.close();
    },
    E2E_MS,
  );

  it(
    'Ctrl-D asks first, saying the pod stops for every client; Esc keeps it; Ctrl-D twice shuts it down',
    async () => {
      tp = await startTestPod({ name: 'e2e' });
      const pane = await open(tp);
      pane.bytes(KEYS.ctrlD);
      await pane.until(
        (s) =>
          s.includes(
            'Shut down pod e2e? It stops for all clients (Ctrl-C twice only detaches) · press Ctrl-D again or y: shut down',
          ),
        'the question',
      );
      pane.bytes(KEYS.escape);
      await pane.until((s) => s.includes('the pod keeps running'), 'the answer');
      expect(tp.pod.status).toBe('idle');
      pane.bytes(KEYS.ctrlD);
      await pane.until((s) => s.includes('Shut down pod e2e?'), 'the question again');
      pane.bytes(KEYS.ctrlD);
      const out = await pane.until((s) => s.includes('[exit 0]'), 'the client to exit');
      expect(out).toContain('detached from pod');
      expect(out).toContain('(it shut down)');
      await tp.pod.closed;
      tp = undefined;
    },
    E2E_MS,
  );

  it(
    'writes, completes and sends a third-party kind with the sigil its welcome advertises; a kind outside the welcome is a labelled chip',
    async () => {
      process.env.PUBLIC_ATTACH_TEST = 'visible';
      tp = await startTestPod({ name: 'e2e', plugins: [...defaultPlugins(), envResolver({ allow: ['PUBLIC_*'] })] });
      // The example declares its kind with `defineSegmentKind({kind: 'env_ref', sigil: '$', field: 'name'})`.
      const pane = await open(tp);
      expect(pane.screen()).toContain('Tab completes @ # / & $');
      pane.type('value of $PUBLIC_ATT\t');
      await pane.until((s) => inputLine(s) === '› value of $PUBLIC_ATTACH_TEST', 'the completed reference');
      pane.bytes(KEYS.enter);
      const s = await pane.until((x) => x.includes('visible') && x.includes('│ idle │'), 'the resolved kind');
      expect(lines(s)).toEqual(
        expect.arrayContaining(['❯ value of $PUBLIC_ATTACH_TEST', '  [system] [Env: PUBLIC_ATTACH_TEST]']),
      );
      const c = await tp.connect();
      await c.request({
        method: 'run',
        params: { input: [text('see '), new UnknownSegment({ kind: 'jira', ref: 'X-1' })] },
      });
      const chip = await pane.until((x) => x.includes('❯ see [jira: X-1]'), 'the labelled chip');
      expect(chip).not.toMatch(/unknown segment/);
      await c.close();
    },
    E2E_MS,
  );
});

if (!hasTmux) {
  describe('yoi attach keys in a terminal', () => {
    it.skip('needs tmux, which is not installed here (apt-get install -y tmux; .ci/run installs it)', () => undefined);
  });
}
