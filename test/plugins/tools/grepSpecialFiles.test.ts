import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileTools, sandbox } from './toolHarness.js';

let box: ReturnType<typeof sandbox>;
afterEach(() => box?.remove());

/** A character device like /dev/zero (endless NULs) at `file`, or why one cannot be made here. */
function makeZeroDevice(file: string): string | undefined {
  const r = spawnSync('mknod', [file, 'c', '1', '5'], { encoding: 'utf8' });
  if (r.error) return `mknod is not available (${r.error.message})`;
  if (r.status !== 0) return `mknod was refused (${r.stderr.trim()}; it needs root)`;
  return undefined;
}

describe('Grep and files that are not regular', () => {
  it('finishes over a directory holding a FIFO and a /dev/zero-like device, and names them skipped', async () => {
    box = sandbox({ 'a.txt': 'needle\n', 'sub/b.txt': 'needle\n' });
    execFileSync('mkfifo', [box.at('pipe')]);
    execFileSync('mkfifo', [box.at('sub/pipe2')]);
    const noDevice = makeZeroDevice(box.at('zero'));
    if (noDevice) console.warn(`the device part of this test is skipped: ${noDevice}`);
    const special = [box.at('pipe'), box.at('sub/pipe2'), ...(noDevice ? [] : [box.at('zero')])].sort();
    const note = ` (skipped ${special.length} files that are not regular files: ${special.join(', ')})`;
    const { call } = fileTools(box.project);

    expect(await call('Grep', { pattern: 'needle' })).toEqual({
      summary: `Found matches in 2 files${note}`,
      content: [box.at('a.txt'), box.at('sub/b.txt')].join('\n'),
    });
    expect(await call('Grep', { pattern: 'needle', output_mode: 'content' })).toEqual({
      summary: `Found matches in 2 files, 2 matching lines${note}`,
      content: [`${box.at('a.txt')}:1:needle`, `${box.at('sub/b.txt')}:1:needle`].join('\n'),
    });
    expect(await call('Grep', { pattern: 'needle', output_mode: 'count' })).toEqual({
      summary: `2 matching lines in 2 files${note}`,
      content: [`${box.at('a.txt')}:1`, `${box.at('sub/b.txt')}:1`].join('\n'),
    });
  });

  it('does not open a FIFO or a device given as the path', async () => {
    box = sandbox({ 'a.txt': 'needle\n' });
    execFileSync('mkfifo', [box.at('pipe')]);
    const { call } = fileTools(box.project);
    expect(await call('Grep', { pattern: 'needle', path: 'pipe' })).toEqual({
      summary: `No files matched (skipped 1 file that is not a regular file: ${box.at('pipe')})`,
    });
    const noDevice = makeZeroDevice(box.at('zero'));
    if (noDevice) {
      console.warn(`the device part of this test is skipped: ${noDevice}`);
      return;
    }
    expect(await call('Grep', { pattern: 'needle', path: 'zero', output_mode: 'content' })).toEqual({
      summary: `No matches (skipped 1 file that is not a regular file: ${box.at('zero')})`,
    });
    // Read refuses it the same way, unopened.
    expect(await call('Read', { file_path: 'zero' })).toEqual({
      summary: `${box.at('zero')} is not a regular file`,
      is_error: true,
    });
  });
});
