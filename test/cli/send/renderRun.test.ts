import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  initialRenderState,
  renderClosed,
  renderEvent,
  renderUnknownEvent,
  type RenderOptions,
  type RenderState,
} from '../../../cli/send/renderRun.js';
import { mainArgument, outcomeText } from '../../../cli/send/toolCallLine.js';
import type { Event } from '../../../core/protocol/index.js';
import type { UnknownEvent } from '../../../client/PodClient.js';

const ack: Event = { event: 'ack', data: { method: 'run' } };
const delta = (text: string): Event => ({ event: 'text_delta', data: { text } });
const turn = (n: number): Event => ({ event: 'turn_start', data: { turn: n } });
const call = (id: string, name: string, args: Record<string, unknown>): Event[] => [
  { event: 'tool_call_start', data: { id, name } },
  { event: 'tool_call_done', data: { id, name, arguments: JSON.stringify(args) } },
];
const result = (id: string, summary: string, is_error = false): Event => ({
  event: 'tool_result',
  data: { id, summary, output: undefined, is_error },
});
const usage = (input: number, output: number): Event => ({
  event: 'usage',
  data: { input_tokens: input, output_tokens: output },
});
const end = (result: 'finished' | 'paused' | 'limit_reached' | 'cancelled' = 'finished'): Event => ({
  event: 'run_end',
  data: { result },
});

/** Plays events through the reducer: what stdout and stderr would hold, the last state, the activities seen. */
function play(events: (Event | { unknown: UnknownEvent } | 'closed')[], options: Partial<RenderOptions> = {}) {
  let state: RenderState = initialRenderState({ quiet: false, v1: false, sharedTerminal: false, ...options });
  let out = '';
  let err = '';
  const activities: (string | undefined)[] = [];
  for (const e of events) {
    const r =
      e === 'closed'
        ? renderClosed(state)
        : 'unknown' in e
          ? renderUnknownEvent(state, e.unknown)
          : renderEvent(state, e);
    state = r.state;
    for (const p of r.pieces) {
      const text = p.spans.map((s) => s.text).join('');
      if (p.to === 'out') out += text;
      else err += text;
    }
    if (activities.at(-1) !== state.activity) activities.push(state.activity);
  }
  return { out, err, state, activities };
}

const toolRun: Event[] = [
  ack,
  { event: 'user_message', data: { segments: [{ kind: 'text', content: 'fix it' }] } },
  turn(0),
  delta("I'll read "),
  delta('it.'),
  ...call('c1', 'Read', { file_path: 'src/math.ts' }),
  ...call('c2', 'Write', { file_path: '/etc/passwd', content: 'x' }),
  usage(900, 20),
  { event: 'turn_end', data: { turn: 0, result: 'finished' } },
  result('c1', 'Read 6 lines from /p/src/math.ts'),
  result('c2', "cannot write /etc/passwd: outside the pod's scope", true),
  turn(1),
  delta('Done.\n'),
  usage(1234, 36),
  { event: 'turn_end', data: { turn: 1, result: 'finished' } },
  end(),
];

describe('renderRun', () => {
  it('shows each turn, each tool call with its main argument and outcome, then the usage', () => {
    const { out, err, state } = play(toolRun);
    expect(out).toBe(
      [
        "I'll read it.",
        '✓ Read src/math.ts → 6 lines',
        "✗ Write /etc/passwd → outside the pod's scope",
        '',
        'Done.',
        '2 requests · context 1,234 tokens · 56 output tokens',
        '',
      ].join('\n'),
    );
    expect(err).toBe('');
    expect(state.outcome).toEqual({ kind: 'finished' });
  });

  it('token counts are grouped as en-US numbers are, for any count (without loading locale data)', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.nat(), (context, output) => {
        const { out } = play([ack, turn(0), usage(context, output), end()]);
        expect(out).toBe(
          `1 request · context ${context.toLocaleString('en-US')} tokens · ${output.toLocaleString('en-US')} output tokens\n`,
        );
      }),
    );
  });

  it('a reply whose deltas were lost to lag is completed from text_done (found: a 5 MB reply printed 1.7 MB, exit 0)', () => {
    const lag: Event = { event: 'lagged', data: { from_seq: 7, to_seq: 9 } };
    const done = (text: string): Event => ({ event: 'text_done', data: { text } });
    const { out, err } = play(
      [
        ack,
        turn(0),
        delta('Hello, '),
        delta('wor'),
        lag,
        delta('!'), // after the gap: written from text_done instead
        done('Hello, world!'),
        turn(1),
        delta('Next '),
        delta('turn.'),
        done('Next turn.'),
        end(),
      ],
      { quiet: true },
    );
    expect(out).toBe('Hello, world!\n\nNext turn.\n');
    expect(err).toContain("events 7–9 were not delivered: this client read too slowly; the reply's text is completed");
  });

  it('--quiet: the reply text only (turns still apart), ending with a newline', () => {
    expect(
      play(
        toolRun.map((e) => (e.event === 'text_delta' && e.data.text === 'Done.\n' ? delta('Done.') : e)),
        { quiet: true },
      ).out,
    ).toBe("I'll read it.\n\nDone.\n");
  });

  it('says what the pod is doing while nothing streams: thinking, the running tools, compacting', () => {
    const { activities } = play([
      ack,
      turn(0),
      ...call('c1', 'Read', { file_path: 'a.ts' }),
      ...call('c2', 'Grep', { pattern: 'TODO' }),
      { event: 'turn_end', data: { turn: 0, result: 'finished' } },
      result('c1', 'Read 1 line from a.ts'),
      result('c2', 'No matches'),
      { event: 'compact_start' },
      turn(1),
      delta('ok'),
      end(),
    ]);
    expect(activities).toEqual([
      'thinking',
      'Read a.ts (+1 more)',
      'Grep TODO',
      'thinking',
      'compacting',
      'thinking',
      undefined,
    ]);
  });

  it('ignores what comes before its run is acknowledged (replayed alerts, other runs) and after it ended', () => {
    const alert: Event = {
      event: 'alert',
      data: { level: 'warn', source: 'pod', message: 'old news', timestamp_ms: 1 },
    };
    const { out, err } = play([alert, delta('not mine'), ack, turn(0), delta('mine'), end(), delta('later'), alert]);
    expect(out).toBe('mine\n1 request · context ? tokens · 0 output tokens\n');
    expect(err).toBe('');
  });

  it('alerts go to stderr; on a shared terminal they first end the transcript line', () => {
    const alert: Event = {
      event: 'alert',
      data: { level: 'warn', source: 'pod', message: 'knowledge_ref #x was not resolved', timestamp_ms: 1 },
    };
    expect(play([ack, delta('half'), alert]).out).toBe('half');
    const shared = play([ack, delta('half'), alert], { sharedTerminal: true });
    expect(shared.out).toBe('half\n');
    expect(shared.err).toBe('[warn] knowledge_ref #x was not resolved\n');
  });

  it('notifications, child reports and compaction are `·` lines', () => {
    const { out } = play([
      ack,
      turn(0),
      delta('working'),
      { event: 'notification', data: { source: 'notify', message: 'build finished\nall green' } },
      { event: 'notification', data: { source: 'pod_event', message: 'Pod `child` finished a turn.' } },
      { event: 'compact_start' },
      { event: 'compact_done', data: { new_session_id: '0192f0e8-4d84-7d6e-a000-000000000001' } },
      { event: 'compact_failed', data: { error: 'provider down' } },
      end('limit_reached'),
    ]);
    expect(out).toBe(
      [
        'working',
        '· notification: build finished …',
        '· report: Pod `child` finished a turn.',
        '· compacting the history…',
        '· history compacted: the pod goes on in session 0192f0e8-4d84-7d6e-a000-000000000001',
        '· compaction failed: provider down',
        '· stopped: the run reached its maxTurns limit',
        '1 request · context ? tokens · 0 output tokens',
        '',
      ].join('\n'),
    );
  });

  it('ends on a paused or cancelled run, a run failure, a shutdown or a closed connection', () => {
    expect(play([ack, turn(0), end('paused')]).state.outcome).toEqual({ kind: 'paused' });
    expect(play([ack, end('cancelled')]).state.outcome).toEqual({ kind: 'cancelled' });
    expect(
      play([ack, { event: 'error', data: { code: 'provider_error', message: 'HTTP 500' } }]).state.outcome,
    ).toEqual({ kind: 'failed', code: 'provider_error', message: 'HTTP 500' });
    expect(play([ack, { event: 'shutdown' }]).state.outcome).toEqual({ kind: 'shutdown' });
    expect(play([ack, delta('x'), 'closed']).state.outcome).toEqual({ kind: 'closed' });
  });

  it("a refusal (a reply) never ends the run; on v1 neither do other clients' refusals and bad lines", () => {
    const refusal: Event = {
      event: 'error',
      request_id: 'r9',
      data: { code: 'not_running', message: 'Pod is not running' },
    };
    expect(play([ack, refusal]).state.outcome).toBeUndefined();
    const others: Event[] = [
      { event: 'error', data: { code: 'already_running', message: 'Pod is already executing a turn' } },
      { event: 'error', data: { code: 'internal', message: 'invalid method: unknown variant `frobnicate`' } },
    ];
    expect(play([ack, ...others], { v1: true }).state.outcome).toBeUndefined();
    expect(play([ack, others[0]]).state.outcome).toMatchObject({ kind: 'failed' }); // on v2 a broadcast error is the run's
    expect(
      play([ack, { event: 'error', data: { code: 'internal', message: 'Cancelled' } }], { v1: true }).state.outcome,
    ).toMatchObject({ kind: 'failed', message: 'Cancelled' });
  });

  it('events it cannot read: one dim line each, not repeated, nothing once the run ended', () => {
    const permission = {
      event: 'permission_request',
      data: { id: 'p1', tool: 'Write', summary: 'Write /etc/hosts' },
      line: '',
    };
    const progress = { event: 'tool_progress', data: { id: 'c1', progress: 3 }, line: '' };
    const { out } = play([
      ack,
      { unknown: permission },
      { unknown: progress },
      { unknown: progress },
      end(),
      { unknown: permission },
    ]);
    expect(out).toBe('· permission_request: Write /etc/hosts\n· tool_progress\n');
  });

  it('a permission ask: a line on stderr with its id and how to answer, the spinner waiting for it; its end as a line too', () => {
    const request = {
      id: '3f9a1c2e',
      tool: 'Bash',
      args: { command: 'npm test' },
      summary: 'Bash: npm test',
      options: ['allow_once', 'reject_once'],
      deadline_ms: 125_000,
      default: 'reject_once',
      pod: 'worker',
      expires_at: 1,
    };
    const asked = { event: 'permission_request', data: request, line: '' };
    const second = { event: 'permission_request', data: { ...request, id: '0b0b0b0b' }, line: '' };
    const resolved = {
      event: 'permission_resolved',
      data: { id: '3f9a1c2e', decision: 'allow_once', by: 'yoi-cli', pod: 'worker' },
      line: '',
    };
    const target = { name: 'lead', flag: '--pod lead' };
    const { out, err, activities } = play(
      [
        ack,
        ...call('c1', 'Bash', { command: 'npm test' }),
        { unknown: asked },
        { unknown: second },
        { unknown: resolved },
        end(),
      ],
      { target },
    );
    expect(err).toBe(
      [
        '[permission 3f9a1c2e] [pod worker] Bash: npm test — answer: yoi approve 3f9a1c2e --pod lead | yoi deny 3f9a1c2e --pod lead (reject_once in 2m 05s)',
        '[permission 0b0b0b0b] [pod worker] Bash: npm test — answer: yoi approve 0b0b0b0b --pod lead | yoi deny 0b0b0b0b --pod lead (reject_once in 2m 05s)',
        '[permission 3f9a1c2e] allow_once (yoi-cli)',
        '',
      ].join('\n'),
    );
    expect(out).toBe('');
    expect(activities).toContain('waiting for permission 3f9a1c2e');
    expect(activities).toContain('Bash npm test');
  });

  it('remembers at most 256 calls waiting for a result (a pod cannot grow it without bound)', () => {
    const calls = Array.from({ length: 300 }, (_, i) => call(`c${i}`, 'Read', { file_path: `f${i}` })).flat();
    const { out, state } = play([
      ack,
      ...calls,
      result('c0', 'Read 1 line from /f0'),
      result('c299', 'Read 1 line from /f299'),
    ]);
    expect(out).toBe('✓ tool → 1 line\n✓ Read f299 → 1 line\n');
    expect(Object.keys(state.calls)).toHaveLength(255);
  });

  it('a result for a call it never saw is still shown', () => {
    expect(play([ack, result('zz', 'done')]).out).toBe('✓ tool → done\n');
  });
});

describe('toolCallLine', () => {
  it('the main argument: the path, the pattern, the pod … as the model wrote it, clipped', () => {
    expect(mainArgument('{"file_path":"src/a.ts","content":"x"}')).toBe('src/a.ts');
    expect(mainArgument('{"pattern":"TODO","path":"src"}')).toBe('src');
    expect(mainArgument('{"content":"only"}')).toBe('only');
    expect(mainArgument('{"n":1}')).toBeUndefined();
    expect(mainArgument('not json')).toBeUndefined();
    expect(mainArgument(JSON.stringify({ command: `${'x'.repeat(100)}\nsecond line` }))).toBe(`${'x'.repeat(79)}…`);
  });

  it('outcomes of the built-in tools in a few words; anything else as its summary', () => {
    expect(outcomeText('Read 6 lines from /p/src/math.ts')).toBe('6 lines');
    expect(outcomeText('Read 1 line from /p/a')).toBe('1 line');
    expect(outcomeText('Read 10 lines [11..20] of 300 from /p/a')).toBe('10 lines [11..20] of 300');
    expect(outcomeText('Created /p/a.ts (12 bytes)')).toBe('created (12 bytes)');
    expect(outcomeText('Edited /p/a.ts (2 replacements)')).toBe('2 replacements');
    expect(outcomeText('Found 3 files matching **/*.ts')).toBe('3 files');
    expect(outcomeText("cannot write /etc/passwd: outside the pod's scope")).toBe("outside the pod's scope");
    expect(outcomeText('spawned pod `child` listening on /run/child/sock\nmore')).toBe(
      'spawned pod `child` listening on /run/child/sock',
    );
  });
});
