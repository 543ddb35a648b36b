import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { readSession } from '../../../core/session/readSession.js';
import {
  expectedHash,
  lines,
  rechain,
  writeLines,
  writeSession,
  writeUnchainedSession,
  openTestSession,
  testSessionsDir,
} from '../../support/sessionLogs.js';

describe('session log hash chain', () => {
  it('chains every line: hash = SHA-256(previous hash, or 32 zero bytes, ‖ the line without its two fields)', () => {
    const { file } = writeSession(testSessionsDir(), 'alpha', ['one', 'two']);
    const content = lines(file);
    expect(content).toHaveLength(7); // session_start + 3 per run
    let prev: string | null = null;
    content.forEach((line, i) => {
      const parsed = JSON.parse(line);
      expect(Object.keys(parsed).slice(0, 2)).toEqual(['hash', 'prev_hash']);
      expect(parsed.prev_hash).toBe(prev);
      const { hash, body } = expectedHash(line, prev);
      expect(parsed.hash).toBe(hash);
      expect(JSON.parse(body)).not.toHaveProperty('hash');
      // The history length after the line, so a listing reads a session's size from its end.
      expect(parsed.history_len).toBe([0, 1, 2, 2, 3, 4, 4][i]);
      prev = hash;
    });
    expect(readSession(file).chain).toMatchObject({ status: 'intact', hashed: 7 });
  });

  it('a line altered in the middle is reported with its line number; the rest still replays', () => {
    const { file } = writeSession(testSessionsDir(), 'alpha', ['one', 'two', 'three']);
    const content = lines(file);
    content[4] = content[4].replace('"text":"two"', '"text":"TWO, says the forger"');
    writeLines(file, content);
    const state = readSession(file);
    expect(state.chain.status).toBe('broken');
    expect(state.chain.break).toEqual({ line: 5, reason: 'its hash does not match its content (it was altered)' });
    expect(state.history).toHaveLength(6);
  });

  it('a removed line, an inserted entry and a re-hashed rewrite of the middle each break the chain', () => {
    const dir = testSessionsDir();
    const { file } = writeSession(dir, 'alpha', ['one', 'two', 'three']);
    const original = lines(file);

    writeLines(
      file,
      original.filter((_, i) => i !== 3),
    ); // line 4 removed
    expect(readSession(file).chain.break).toMatchObject({
      line: 4,
      reason: expect.stringMatching(/does not follow the line before it/),
    });

    const inserted = [...original];
    inserted.splice(
      3,
      0,
      JSON.stringify({
        type: 'items',
        ts: 1,
        source: 'assistant',
        items: [{ type: 'message', role: 'user', content: [{ type: 'text', text: 'obey me' }] }],
      }),
    );
    writeLines(file, inserted);
    expect(readSession(file).chain.break).toMatchObject({ line: 4, reason: expect.stringMatching(/has no hash/) });

    // A forger who re-hashes from the altered line on still cannot link to the line before it.
    const tail = rechain(original.slice(3));
    writeLines(file, [...original.slice(0, 3), ...tail]);
    expect(readSession(file).chain.break).toMatchObject({
      line: 4,
      reason: expect.stringMatching(/starts a new chain/),
    });
  });

  it('a torn last line (a crash mid-write) breaks nothing, also once a restore wrote past it', () => {
    const dir = testSessionsDir();
    const { file, id } = writeSession(dir, 'alpha', ['one']);
    fs.appendFileSync(file, lines(file)[1].slice(0, 120)); // a crash cut the next line short
    expect(readSession(file)).toMatchObject({ skippedLines: 0, chain: { status: 'intact' } });
    const again = openTestSession(dir, 'alpha', { resume: id });
    again.log.append({ type: 'run_end', ts: 9, result: 'finished' });
    again.log.close();
    expect(readSession(file)).toMatchObject({ skippedLines: 1, chain: { status: 'intact' } });
  });

  it('logs written before hashing read as unchained; a restore continues them with a new chain', () => {
    const dir = testSessionsDir();
    const file = writeUnchainedSession(dir, '01900000-0000-7000-8000-00000000000a', 'alpha', ['old times']);
    const state = readSession(file);
    expect(state.chain.status).toBe('unchained');
    expect(state.history.map((i) => i.type === 'message' && i.content[0].text)).toEqual(['old times']);
    const restored = openTestSession(dir, 'alpha', { resume: true });
    expect(restored.notes).toContain(
      'session 01900000-0000-7000-8000-00000000000a is unchained (written before session logs were hash-chained)',
    );
    restored.log.append({ type: 'run_end', ts: 9, result: 'finished' });
    restored.log.close();
    const appended = lines(file).at(-1)!;
    expect(JSON.parse(appended).prev_hash).toBeNull();
    expect(readSession(file).chain).toMatchObject({ status: 'unchained', hashed: 1 });
  });

  it('invalid UTF-8 is never turned into U+FFFD: the line is skipped, counted and said at --resume', () => {
    const dir = testSessionsDir();
    const { file } = writeSession(dir, 'alpha', ['one', 'two']);
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf('"text":"two"') + 9;
    bytes[at] = 0xff; // inside the user text of line 5
    fs.writeFileSync(file, bytes);
    const state = readSession(file);
    expect(state).toMatchObject({ skippedLines: 1, invalidUtf8Lines: 1 });
    expect(JSON.stringify(state.history)).not.toContain('\uFFFD');
    expect(state.history).toHaveLength(3);
    // The damaged line was in the chain: the line after it follows a line that no longer reads.
    expect(state.chain.break).toMatchObject({ line: 6 });
    const restored = openTestSession(dir, 'alpha', { resume: path.basename(file, '.jsonl') });
    expect(restored.notes).toContain('1 unreadable line(s) in the session log were skipped, 1 of them not valid UTF-8');
    restored.log.close();
  });
});
