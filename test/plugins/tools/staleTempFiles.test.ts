import { afterEach, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JOURNAL_DIR, TempJournal } from '../../../plugins/tools/shared/TempJournal.js';
import { tempFileName } from '../../../plugins/tools/shared/tempFiles.js';
import { RawClient } from '../../support/rawClient.js';
import { startTestPod, type TestPod } from '../../support/startTestPod.js';
import { fileTools } from './toolHarness.js';

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

/** A temp file as a killed writer `pid` left it, with its journal entry `<pid>.<id>.json`. */
function leftover(dir: string, journal: string, target: string, pid: number, id = 'ab'.repeat(6)): string {
  const temp = path.join(dir, tempFileName(target, pid));
  fs.writeFileSync(temp, 'half a file');
  fs.mkdirSync(journal, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(journal, `${pid}.${id}.json`), JSON.stringify({ path: temp, pid }));
  return temp;
}

const cleanups: (() => void)[] = [];
let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
  for (const c of cleanups.splice(0)) c();
});

function dirs() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-stale-')));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const project = path.join(root, 'project');
  const other = path.join(root, 'other');
  fs.mkdirSync(project);
  fs.mkdirSync(other);
  return { root, project, other, journal: path.join(root, 'run', JOURNAL_DIR) };
}

describe('TempJournal.sweep', () => {
  it('deletes the temp files of dead writers within the scope, and only those', async () => {
    const { project, other, journal } = dirs();
    const dead = deadPid();
    const stale = leftover(project, journal, 'big.txt', dead);
    const elsewhere = leftover(other, journal, 'x.txt', dead, 'cd'.repeat(6)); // another pod's scope
    const live = leftover(project, journal, 'live.txt', process.pid); // a write in flight
    // A forged entry naming a file that is no temp file of that writer: nothing is deleted.
    fs.writeFileSync(path.join(project, 'README.md'), 'keep me');
    fs.writeFileSync(
      path.join(journal, `${dead}.${'ef'.repeat(6)}.json`),
      JSON.stringify({ path: path.join(project, 'README.md'), pid: dead }),
    );

    const sweep = new TempJournal(journal);
    const removed = await sweep.sweep((temp) => temp.startsWith(project + path.sep));
    expect(removed).toEqual([stale]);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(elsewhere)).toBe(true);
    expect(fs.existsSync(live)).toBe(true);
    expect(fs.readFileSync(path.join(project, 'README.md'), 'utf8')).toBe('keep me');
    // The forged and the done entries are gone; the other scope's and the live one wait.
    expect(fs.readdirSync(journal).sort()).toEqual(
      [`${dead}.${'cd'.repeat(6)}.json`, `${process.pid}.${'ab'.repeat(6)}.json`].sort(),
    );
  });

  it('never follows a symlink put where the temp file was', async () => {
    const { root, project, journal } = dirs();
    const dead = deadPid();
    const stale = leftover(project, journal, 'f.txt', dead);
    fs.rmSync(stale);
    fs.writeFileSync(path.join(root, 'precious'), 'x');
    fs.symlinkSync(path.join(root, 'precious'), stale);
    expect(await new TempJournal(journal).sweep(() => true)).toEqual([]);
    expect(fs.existsSync(path.join(root, 'precious'))).toBe(true);
  });
});

describe('temp files of interrupted writes', () => {
  it('are removed when a pod starts, which says so', async () => {
    const { project } = dirs();
    const dead = deadPid();
    const journal = path.join(project, 'run', JOURNAL_DIR);
    const stale = leftover(project, journal, 'big.txt', dead);
    tp = await startTestPod({ dir: project });
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.readdirSync(journal)).toEqual([]);
    const c = await RawClient.connect(tp.socket); // sees the alerts replayed on connect
    await c.until(
      (e) =>
        e.event === 'alert' &&
        e.data.message === `yoi:stale-temp-files: removed 1 temp file left by interrupted writes: ${stale}`,
    );
    c.destroy();
  });

  it('are never listed by Glob or Grep, wherever they come from', async () => {
    const { project } = dirs();
    fs.writeFileSync(path.join(project, 'a.txt'), 'needle\n');
    fs.writeFileSync(path.join(project, tempFileName('a.txt', 12345)), 'needle\n');
    fs.writeFileSync(path.join(project, '.a.txt.0123456789ab.yoi-tmp'), 'needle\n'); // an older yoi's name
    const { call } = fileTools(project);
    expect(await call('Glob', { pattern: '**/*' })).toEqual({
      summary: 'Found 1 file matching **/*',
      content: path.join(project, 'a.txt'),
    });
    expect(await call('Glob', { pattern: '**/.*' })).toEqual({ summary: 'No files found matching **/.*' });
    expect(await call('Grep', { pattern: 'needle' })).toEqual({
      summary: 'Found matches in 1 file',
      content: path.join(project, 'a.txt'),
    });
    expect(await call('Grep', { pattern: 'needle', path: path.join(project, '.a.txt.0123456789ab.yoi-tmp') })).toEqual({
      summary: 'No files matched',
    });
  });
});
