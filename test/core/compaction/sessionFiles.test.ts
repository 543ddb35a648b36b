import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { compactionNotes } from '../../../core/compaction/compactionNotes.js';
import { writeCompactedSession } from '../../../core/compaction/writeCompactedSession.js';
import { messageItem } from '../../../core/history/HistoryItem.js';
import { openSession } from '../../../core/pod/openSession.js';
import { listSessions, readSession } from '../../../core/session/readSession.js';
import { readSessionChain } from '../../../core/session/readSessionChain.js';
import { retainedCount, formatChain } from '../../../cli/historyChain.js';
import { formatHistoryItem } from '../../../cli/formatHistoryItem.js';
import { makeProject } from '../../support/startTestPod.js';

const fields = { pod_name: 'p', cwd: '/w', provider: 'echo', model: 'echo', system_prompt: 'sys' };
const start = (id: string, from: string | undefined, history = [messageItem('system', `summary of ${from}`)]) => ({
  type: 'session_start' as const,
  v: 1 as const,
  ts: 5,
  session_id: id,
  ...fields,
  ...(from ? { compacted_from: { session_id: from, at: 1_700_000_000_000 } } : {}),
  history,
});

describe('compacted session files', () => {
  it('appear whole under their final name; a leftover temp file is never listed as a session', () => {
    const dir = path.join(makeProject(), 'sessions');
    const log = writeCompactedSession(dir, start('01900000-0000-7000-8000-000000000002', 'old'));
    log.append({ type: 'run_end', ts: 6, result: 'finished' });
    log.close();
    expect(fs.readdirSync(dir)).toEqual(['01900000-0000-7000-8000-000000000002.jsonl']);
    const state = readSession(log.file);
    expect(state.history).toEqual([messageItem('system', 'summary of old')]);
    expect(state.start.compacted_from).toEqual({ session_id: 'old', at: 1_700_000_000_000 });
    // What a kill between write and rename leaves: not a session.
    fs.writeFileSync(path.join(dir, '.01900000-0000-7000-8000-000000000003.jsonl.tmp'), '{"type":"session_start"');
    expect(listSessions(dir)).toEqual([log.file]);
    expect(() => writeCompactedSession(dir, start('01900000-0000-7000-8000-000000000002', 'old'))).toThrow(
      'already exists',
    );
  });

  it('a restore of a compacted session starts from its recorded history', () => {
    const dir = path.join(makeProject(), 'sessions');
    const first = openSession({ dir, podName: 'p', cwd: '/w', provider: 'echo', model: 'echo', systemPrompt: 'sys' });
    first.log.close();
    writeCompactedSession(dir, start('ffffffff-0000-7000-8000-000000000000', first.log.sessionId)).close();
    const restored = openSession({
      dir,
      podName: 'p',
      cwd: '/w',
      provider: 'echo',
      model: 'echo',
      systemPrompt: 'other',
      resume: true,
    });
    expect(restored.log.sessionId).toBe('ffffffff-0000-7000-8000-000000000000');
    expect(restored.history).toEqual([messageItem('system', `summary of ${first.log.sessionId}`)]);
    expect(restored.systemPrompt).toBe('sys');
    restored.log.close();
  });

  it('readSessionChain walks compacted_from back, oldest first, and says which link is gone', () => {
    const dir = path.join(makeProject(), 'sessions');
    const a = openSession({ dir, podName: 'p', cwd: '/w', provider: 'echo', model: 'echo', systemPrompt: 'sys' });
    a.log.append({
      type: 'user_input',
      ts: 1,
      segments: [],
      items: [messageItem('user', 'hi'), messageItem('assistant', 'hello')],
    });
    a.log.close();
    writeCompactedSession(
      dir,
      start('b', a.log.sessionId, [messageItem('system', 'S1'), messageItem('assistant', 'hello')]),
    ).close();
    writeCompactedSession(dir, start('c', 'b')).close();
    const chain = readSessionChain(dir, 'c');
    expect(chain.sessions.map((s) => s.sessionId)).toEqual([a.log.sessionId, 'b', 'c']);
    expect(chain.missing).toBeUndefined();
    fs.rmSync(a.log.file);
    expect(readSessionChain(dir, 'c')).toMatchObject({
      missing: a.log.sessionId,
      sessions: [{ sessionId: 'b' }, { sessionId: 'c' }],
    });
    expect(() => readSessionChain(dir, 'nope')).toThrow(`no session nope in ${dir}`);
  });

  it('yoi history --chain prints each session once, without the items a compaction carried over', () => {
    const hi = messageItem('user', 'hi');
    const hello = messageItem('assistant', 'hello');
    expect(retainedCount([hi, hello], [messageItem('system', 'S'), hello])).toBe(1);
    expect(retainedCount([hi, hello], [messageItem('system', 'S')])).toBe(0);
    const lines = formatChain(
      [
        { session_id: 'a', items: [hi, hello], startItems: 0 },
        {
          session_id: 'b',
          compacted_from: { session_id: 'a', at: 0 },
          items: [messageItem('system', 'S'), hello, messageItem('user', 'more')],
          startItems: 2,
        },
      ],
      formatHistoryItem,
    );
    expect(lines).toEqual([
      '── session a ──',
      'user: hi',
      'assistant: hello',
      '── compacted at 1970-01-01T00:00:00.000Z into session b (1 recent item(s) kept, not repeated) ──',
      'system: S',
      'user: more',
    ]);
    // A session whose hash chain is not intact says so in its header.
    expect(
      formatChain(
        [
          {
            session_id: 'a',
            items: [hi],
            startItems: 0,
            chain: 'broken at line 2: its hash does not match its content (it was altered)',
          },
        ],
        formatHistoryItem,
      )[0],
    ).toBe('── session a [hash chain broken at line 2: its hash does not match its content (it was altered)] ──');
  });
});

describe('compaction settings', () => {
  it('odd but valid settings are said once at start; sensible ones say nothing', () => {
    expect(compactionNotes({ retainedTokens: 8000 })).toEqual([]);
    expect(compactionNotes({ threshold: 100_000, requestThreshold: 150_000, retainedTokens: 8000 })).toEqual([]);
    expect(compactionNotes({ threshold: 150_000, requestThreshold: 100_000, retainedTokens: 8000 })).toEqual([
      'compaction.threshold (150000) is above compaction.requestThreshold (100000): runs compact mid-turn before the post-run threshold is reached',
    ]);
    expect(compactionNotes({ threshold: 5000, retainedTokens: 8000 })).toEqual([
      'compaction.retainedTokens (8000) is not below compaction.threshold (5000): a compaction may not bring the context under it',
    ]);
  });
});
