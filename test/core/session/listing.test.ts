import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { writeCompactedSession } from '../../../core/compaction/writeCompactedSession.js';
import { messageItem } from '../../../core/history/HistoryItem.js';
import { checkCompactionLink } from '../../../core/session/checkCompactionLink.js';
import { listSessionSummaries } from '../../../core/session/listSessionSummaries.js';
import { readSessionChain } from '../../../core/session/readSessionChain.js';
import { readSession } from '../../../core/session/readSession.js';
import { SessionSummarySchema, summarizeSession } from '../../../core/session/summarizeSession.js';
import { makeProject } from '../../support/startTestPod.js';
import {
  lines,
  rechain,
  writeLines,
  writeSession,
  writeUnchainedSession,
  openTestSession,
  testSessionsDir,
} from '../../support/sessionLogs.js';

const big = (tag: string) => `${tag} ${'x'.repeat(100 * 1024)}`;

describe('session listing', () => {
  it('summarises each session: pod, times, items, compaction both ways, most recently active first', () => {
    const dir = testSessionsDir();
    const a = writeSession(dir, 'alpha', ['one', 'two'], Date.now() + 1000);
    const b = writeSession(dir, 'beta', ['hello'], Date.now() + 2000);
    const startOfA = JSON.parse(lines(a.file)[0]);
    const c = writeCompactedSession(dir, {
      type: 'session_start',
      v: 1,
      ts: Date.now() + 3000,
      session_id: 'ffffffff-0000-7000-8000-00000000000c',
      pod_name: 'alpha',
      cwd: '/w',
      provider: 'echo',
      model: 'echo',
      system_prompt: 'sys',
      compacted_from: { session_id: a.id, at: Date.now() },
      history: [messageItem('system', 'summary'), messageItem('assistant', 'echo: two')],
    });
    c.close();
    const { sessions, unreadable } = listSessionSummaries(dir, { live: new Set([b.id]) });
    expect(unreadable).toEqual([]);
    for (const s of sessions) SessionSummarySchema.parse(s);
    expect(sessions.map((s) => [s.id, s.pod, s.items, s.compacted_from, s.compacted_to, s.live, s.chain])).toEqual([
      [c.sessionId, 'alpha', 2, a.id, null, false, 'intact'],
      [b.id, 'beta', 2, null, null, true, 'intact'],
      [a.id, 'alpha', 4, null, c.sessionId, false, 'intact'],
    ]);
    expect(sessions[2]).toMatchObject({
      started: startOfA.ts,
      last_activity: JSON.parse(lines(a.file).at(-1)!).ts,
      chain_checked: 'all',
      file: a.file,
      bytes: fs.statSync(a.file).size,
    });
  });

  it('reads a large log only at its ends: the middle is not checked unless --verify asks', () => {
    const dir = testSessionsDir();
    const { file } = writeSession(dir, 'alpha', [big('one'), big('two'), 'three']);
    const content = lines(file);
    content[4] = content[4].replace('two', 'TWO'); // in the middle, far from both ends
    writeLines(file, content);
    const quick = summarizeSession(file);
    expect(quick).toMatchObject({ chain: 'intact', chain_checked: 'ends', items: 6 });
    expect(quick.last_activity).toBe(JSON.parse(content.at(-1)!).ts);
    expect(summarizeSession(file, { verify: true })).toMatchObject({
      chain: 'broken',
      chain_checked: 'all',
      chain_break: { line: 5 },
      items: 6,
    });
    // A change near the end is seen by the quick look too, counted from the end.
    content[content.length - 2] = content[content.length - 2].replace('three', 'THREE');
    writeLines(file, content);
    expect(summarizeSession(file)).toMatchObject({
      chain: 'broken',
      chain_checked: 'ends',
      chain_break: { from_end: 2 },
    });
  });

  it('stays bounded on a 3 GiB log: first line and tail only (a whole read is refused)', () => {
    const dir = testSessionsDir();
    const { file } = writeSession(dir, 'alpha', ['one', 'two']);
    const content = lines(file);
    fs.writeFileSync(file, `${content[0]}\n`);
    fs.truncateSync(file, 3 * 1024 ** 3); // a hole: costs no disk, but 3 GiB to read
    fs.appendFileSync(file, `\n${content.slice(1).join('\n')}\n`);
    const s = summarizeSession(file);
    expect(s).toMatchObject({
      pod: 'alpha',
      items: 4,
      chain: 'intact',
      chain_checked: 'ends',
      bytes: fs.statSync(file).size,
    });
    expect(() => readSession(file)).toThrow('it is larger than 1 GiB');
  });

  it('large logs from before hashing list with unknown items; unreadable files are reported, not fatal', () => {
    const dir = testSessionsDir();
    const old = writeUnchainedSession(
      dir,
      '01900000-0000-7000-8000-00000000000a',
      'alpha',
      [big('a'), big('b')],
      1_700_000_000_000,
    );
    fs.writeFileSync(path.join(dir, '01900000-0000-7000-8000-00000000000b.jsonl'), 'not json\n');
    fs.copyFileSync(old, path.join(dir, 'copy.jsonl')); // holds a session that is not its name
    const { sessions, unreadable } = listSessionSummaries(dir);
    expect(sessions).toEqual([
      expect.objectContaining({
        id: '01900000-0000-7000-8000-00000000000a',
        chain: 'unchained',
        items: null,
        last_activity: 1_700_000_000_002,
      }),
    ]);
    expect(unreadable.map((u) => [path.basename(u.file), u.reason])).toEqual([
      ['copy.jsonl', 'it holds session 01900000-0000-7000-8000-00000000000a, which is not its name'],
      ['01900000-0000-7000-8000-00000000000b.jsonl', 'not a yoi session log (no session_start)'],
    ]);
  });
});

describe('compaction links', () => {
  const start = (id: string, from: string, atHash?: string) => ({
    type: 'session_start' as const,
    v: 1 as const,
    ts: Date.now(),
    session_id: id,
    pod_name: 'alpha',
    cwd: '/w',
    provider: 'echo',
    model: 'echo',
    system_prompt: 'sys',
    compacted_from: { session_id: from, at: Date.now(), ...(atHash ? { at_hash: atHash } : {}) },
    history: [messageItem('system', 'summary')],
  });
  const headOf = (file: string) => JSON.parse(lines(file).at(-1)!).hash as string;

  it('says whether the old log still ends where it was compacted, went on, or was rewritten', () => {
    const dir = testSessionsDir();
    const old = writeSession(dir, 'alpha', ['one', 'two']);
    const at = headOf(old.file);
    expect(checkCompactionLink(dir, start('n1', old.id, at))).toMatchObject({ status: 'intact' });
    const resumed = openTestSession(dir, 'alpha', { resume: old.id });
    resumed.log.append({ type: 'run_end', ts: Date.now(), result: 'finished' });
    resumed.log.close();
    expect(checkCompactionLink(dir, start('n1', old.id, at))).toMatchObject({ status: 'continued' });
    writeLines(old.file, rechain(lines(old.file).slice(0, 3))); // rewritten, its chain recomputed
    expect(checkCompactionLink(dir, start('n1', old.id, at))).toMatchObject({ status: 'altered' });
    expect(checkCompactionLink(dir, start('n1', old.id))).toMatchObject({ status: 'unrecorded' });
    expect(checkCompactionLink(dir, start('n1', 'gone'))).toMatchObject({ status: 'missing' });
  });

  it('a compacted_from that is no session id names no file: nothing outside the directory is read', () => {
    const project = makeProject();
    const dir = path.join(project, '.yoi', 'sessions');
    const outside = writeSession(path.join(project, 'elsewhere'), 'alpha', ['outside the session directory']);
    const escape = path.relative(dir, outside.file).replace(/\.jsonl$/, '');
    writeCompactedSession(dir, start('ffffffff-0000-7000-8000-00000000000d', escape)).close();
    const chain = readSessionChain(dir, 'ffffffff-0000-7000-8000-00000000000d');
    expect(chain.sessions).toHaveLength(1);
    expect(chain.missing).toBe(escape);
    expect(checkCompactionLink(dir, start('x', escape, 'a'.repeat(64)))).toMatchObject({ status: 'missing' });
  });
});
