import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isTempFileName, tempFileName, tempFileWriter } from '../../../plugins/tools/shared/tempFiles.js';
import { TempJournal } from '../../../plugins/tools/shared/TempJournal.js';
import { writeFileAtomic } from '../../../plugins/tools/shared/writeFileAtomic.js';

let root: string;
let project: string;
let outside: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-write-')));
  project = path.join(root, 'project');
  outside = path.join(root, 'outside');
  fs.mkdirSync(path.join(project, 'd'), { recursive: true });
  fs.mkdirSync(outside);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const changed = { code: 'YOI_ERR_PATH_CHANGED' };

describe('writeFileAtomic', () => {
  it('writes through a temp file, creating missing directories, leaving no temp behind', async () => {
    const file = path.join(project, 'd', 'new', 'deeper', 'f.txt');
    const journal = new TempJournal(path.join(root, 'run', '.write-temps'));
    await writeFileAtomic(file, Buffer.from('hello\n'), { mode: 0o640, journal });
    expect(fs.readFileSync(file, 'utf8')).toBe('hello\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['f.txt']);
    expect(fs.readdirSync(journal.dir)).toEqual([]); // recorded while it existed, forgotten after
  });

  it('writes nothing outside when the directory checked was swapped for a symlink before the write', async () => {
    // The state a swapper leaves between the scope check and the write: `d` now leads outside.
    fs.rmSync(path.join(project, 'd'), { recursive: true });
    fs.symlinkSync(outside, path.join(project, 'd'));
    await expect(writeFileAtomic(path.join(project, 'd', 'f.txt'), Buffer.from('x'))).rejects.toMatchObject(changed);
    await expect(writeFileAtomic(path.join(project, 'd', 'sub', 'f.txt'), Buffer.from('x'))).rejects.toMatchObject(
      changed,
    );
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('creates no directory through a link put in place of a missing one', async () => {
    fs.symlinkSync(outside, path.join(project, 'd', 'made'));
    await expect(
      writeFileAtomic(path.join(project, 'd', 'made', 'sub', 'f.txt'), Buffer.from('x')),
    ).rejects.toMatchObject(changed);
    expect(fs.readdirSync(outside)).toEqual([]);
  });
});

describe('temp file names', () => {
  it('are hidden, name their writer, and stay within name limits', () => {
    const name = tempFileName('report.txt', 4242);
    expect(name).toMatch(/^\.report\.txt\.4242\.[0-9a-f]{12}\.yoi-tmp$/);
    expect(isTempFileName(name)).toBe(true);
    expect(tempFileWriter(name)).toBe(4242);
    expect(isTempFileName('.report.txt.ab12cd34ef56.yoi-tmp')).toBe(true); // an older yoi's
    expect(tempFileWriter('.report.txt.ab12cd34ef56.yoi-tmp')).toBeUndefined();
    expect(isTempFileName('report.yoi-tmp')).toBe(false);
    const long = tempFileName('é'.repeat(127));
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(255);
    expect(long).not.toContain('\ufffd');
  });
});
