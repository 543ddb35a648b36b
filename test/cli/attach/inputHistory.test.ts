import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputHistory } from '../../../cli/attach/InputHistory.js';
import { InputHistoryFile, MAX_ENTRY_BYTES, MAX_HISTORY_ENTRIES } from '../../../cli/attach/InputHistoryFile.js';
import { UnknownSegment, type Segment } from '../../../core/protocol/index.js';

const t = (content: string): Segment => ({ kind: 'text', content });
const stateDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-st-'));
const env = (dir: string) => ({ XDG_STATE_HOME: dir });
const texts = (h: InputHistory) => {
  const out: string[] = [];
  for (let r = h.prev(); r; r = h.prev()) out.push(r.type === 'entry' ? JSON.stringify(r.segments) : 'draft');
  return out;
};

describe('the input history file', () => {
  it('keeps inputs per project under the user state dir, 0700/0600, with their segments', () => {
    const dir = stateDir();
    const a = new InputHistory();
    a.open('/projects/a', env(dir));
    a.add([t('first '), { kind: 'file_ref', path: 'x.ts' }]);
    a.add([new UnknownSegment({ kind: 'jira', ref: 'X-1' })]);
    a.add([new UnknownSegment({ kind: 'jira', ref: 'X-1' })]); // not twice in a row
    const file = InputHistoryFile.forProject('/projects/a', env(dir)).file;
    expect(path.dirname(file)).toBe(path.join(dir, 'yoi', 'attach-history'));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);

    const again = new InputHistory();
    again.open('/projects/a', env(dir));
    expect(texts(again)).toEqual([
      '[{"kind":"jira","ref":"X-1"}]',
      '[{"kind":"text","content":"first "},{"kind":"file_ref","path":"x.ts"}]',
    ]);
    expect(again.prev()).toBeUndefined(); // already at the oldest
    const other = new InputHistory();
    other.open('/projects/b', env(dir));
    expect(other.size).toBe(0);
  });

  it('stores what was sent before the project was known', () => {
    const dir = stateDir();
    const h = new InputHistory();
    h.add([t('early')]);
    h.open('/early', env(dir));
    h.add([t('late')]);
    const back = new InputHistory();
    back.open('/early', env(dir));
    expect(texts(back)).toEqual(['[{"kind":"text","content":"late"}]', '[{"kind":"text","content":"early"}]']);
  });

  it('browses like a shell: newest first, then back down to the draft', () => {
    const h = new InputHistory();
    h.add([t('one')]);
    h.add([t('two')]);
    expect(h.next()).toBeUndefined();
    expect(h.prev()).toEqual({ type: 'entry', segments: [t('two')] });
    expect(h.prev()).toEqual({ type: 'entry', segments: [t('one')] });
    expect(h.prev()).toBeUndefined();
    expect(h.next()).toEqual({ type: 'entry', segments: [t('two')] });
    expect(h.next()).toEqual({ type: 'draft' });
    expect(h.browsing).toBe(false);
  });

  it('stays bounded: entries, entry size, and the file (rewritten with the newest)', () => {
    const dir = stateDir();
    const h = new InputHistory();
    h.open('/p', env(dir));
    h.add([t('x'.repeat(MAX_ENTRY_BYTES))]); // too large to store: this session only
    for (let i = 0; i < MAX_HISTORY_ENTRIES * 2; i++) h.add([t(`n${i}`)]);
    expect(h.size).toBe(MAX_HISTORY_ENTRIES);
    const file = InputHistoryFile.forProject('/p', env(dir)).file;
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(MAX_HISTORY_ENTRIES * 1.5);
    expect(lines.some((l) => l.includes('xxxx'))).toBe(false);
    const back = new InputHistory();
    back.open('/p', env(dir));
    expect(back.size).toBe(MAX_HISTORY_ENTRIES);
    expect(back.prev()).toEqual({ type: 'entry', segments: [t(`n${MAX_HISTORY_ENTRIES * 2 - 1}`)] });
  });

  it('skips lines that do not parse and loses nothing else', () => {
    const dir = stateDir();
    const file = InputHistoryFile.forProject('/q', env(dir)).file;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(
      file,
      `not json\n{"at":1,"segments":[{"kind":"paste","id":"x"}]}\n{"at":2,"segments":[{"kind":"text","content":"kept"}]}\n{"at":3}\n`,
      { mode: 0o644 },
    );
    const h = new InputHistory();
    h.open('/q', env(dir));
    expect(texts(h)).toEqual(['[{"kind":"text","content":"kept"}]']);
    h.add([t('new')]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600); // tightened
  });

  it('refuses a symlinked file or directory, says so once, and keeps working in memory', () => {
    const dir = stateDir();
    const target = path.join(dir, 'elsewhere');
    fs.writeFileSync(target, '');
    const file = InputHistoryFile.forProject('/r', env(dir)).file;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.symlinkSync(target, file);
    const errors: string[] = [];
    const h = new InputHistory((m) => errors.push(m));
    h.open('/r', env(dir));
    h.add([t('in memory')]);
    h.add([t('still')]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^input history is kept for this session only: .*\(.*attach-history/);
    expect(fs.readFileSync(target, 'utf8')).toBe('');
    expect(h.size).toBe(2);

    const dir2 = stateDir();
    fs.mkdirSync(path.join(dir2, 'yoi'), { recursive: true });
    fs.symlinkSync(dir, path.join(dir2, 'yoi', 'attach-history'));
    const errors2: string[] = [];
    const h2 = new InputHistory((m) => errors2.push(m));
    h2.open('/s', env(dir2));
    h2.add([t('x')]);
    expect(errors2[0]).toMatch(/is not a directory of this user/);
  });
});
