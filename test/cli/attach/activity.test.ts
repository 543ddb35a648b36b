import { describe, expect, it } from '@jest/globals';
import { activityText, formatElapsed } from '../../../cli/attach/activity.js';
import { emptyTranscript, reduceEvents, type TranscriptState } from '../../../cli/attach/transcriptReducer.js';
import type { Event } from '../../../core/protocol/index.js';

/** The activity after each event of a run, as the transcript reducer tracks it. */
function activities(events: Event[]): (string | undefined)[] {
  let s: TranscriptState = emptyTranscript;
  return events.map((e) => {
    s = reduceEvents(s, [e]);
    return s.activity && activityText(s.activity, 0).replace(/… .*/, '');
  });
}

describe('the activity of a live run', () => {
  it('follows a run: thinking, responding, preparing and running tools by name, back to thinking, none at the end', () => {
    expect(
      activities([
        { event: 'status', data: { status: 'running', session_id: 's' } },
        { event: 'user_message', data: { segments: [{ kind: 'text', content: 'go' }] } },
        { event: 'turn_start', data: { turn: 0 } },
        { event: 'text_delta', data: { text: 'let me look' } },
        { event: 'tool_call_start', data: { id: 'a', name: 'Read' } },
        { event: 'tool_call_start', data: { id: 'b', name: 'Grep' } },
        { event: 'tool_call_done', data: { id: 'a', name: 'Read', arguments: '{}' } },
        { event: 'tool_call_done', data: { id: 'b', name: 'Grep', arguments: '{}' } },
        { event: 'tool_result', data: { id: 'a', summary: 'ok', output: undefined, is_error: false } },
        { event: 'tool_result', data: { id: 'b', summary: 'ok', output: undefined, is_error: false } },
        { event: 'turn_end', data: { turn: 0, result: 'finished' } },
        { event: 'status', data: { status: 'compacting', session_id: 's' } },
        { event: 'status', data: { status: 'running', session_id: 's' } },
        { event: 'turn_start', data: { turn: 1 } },
        { event: 'run_end', data: { result: 'finished' } },
        { event: 'status', data: { status: 'idle', session_id: 's' } },
      ]),
    ).toEqual([
      'thinking',
      'thinking',
      'thinking',
      'responding',
      'preparing Read',
      'preparing Read, Grep',
      'running Read, Grep',
      'running Read, Grep',
      'running Grep',
      'thinking',
      'thinking',
      'compacting',
      'thinking',
      'thinking',
      undefined,
      undefined,
    ]);
  });

  it('knows a run already live when the client connects, and a failed run ends it', () => {
    const welcome: Event = {
      event: 'welcome',
      data: {
        protocol_version: 2,
        pod_name: 'p',
        session_id: 's',
        status: 'running',
        segment_kinds: [],
        pod_event_kinds: [],
      },
    };
    expect(activities([welcome, { event: 'error', data: { code: 'provider_error', message: 'x' } }])).toEqual([
      'thinking',
      undefined,
    ]);
    // A refused request of this client (a reply, with a request id) does not end anything.
    expect(
      activities([welcome, { event: 'error', request_id: 'r1', data: { code: 'already_running', message: 'x' } }]),
    ).toEqual(['thinking', 'thinking']);
  });

  it('says how long it has run and how to pause it', () => {
    expect(activityText({ kind: 'tools', running: true, names: ['Read', 'Read', 'Grep'] }, 65_400)).toBe(
      'running Read ×2, Grep… 1m 05s · Ctrl-C pauses',
    );
    expect(activityText({ kind: 'compacting' }, 2000)).toBe('compacting… 2s · Ctrl-C stops the compaction');
    expect([formatElapsed(0), formatElapsed(59_999), formatElapsed(3_600_000 + 125_000)]).toEqual([
      '0s',
      '59s',
      '1h 02m',
    ]);
  });
});
