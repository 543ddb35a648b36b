import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { fileTools, sandbox } from '../toolHarness.js';

let box: ReturnType<typeof sandbox>;
afterEach(() => box?.remove());

const guesses = ['hunter1', 'hunter2', 'hunter3'];

/** Replays what a model with Bash can do: ignore files that lead where the scope forbids. */
describe('Grep and hostile ignore files', () => {
  it('lets no ignore file turn the listing into an oracle on a file the scope denies or keeps out', async () => {
    box = sandbox({ 'secrets/token.txt': 'hunter2\n', ...Object.fromEntries(guesses.map((g) => [g, 'probe\n'])) });
    fs.writeFileSync(`${box.root}/outside.txt`, 'hunter3\n');
    fs.symlinkSync('secrets/token.txt', box.at('.ignore')); // denied below
    fs.symlinkSync('../outside.txt', box.at('.rgignore')); // outside the scope
    fs.mkdirSync(box.at('.git'));
    fs.mkdirSync(box.at('.git/info'));
    fs.symlinkSync('../../secrets/token.txt', box.at('.git/info/exclude'));
    const { call } = fileTools(box.project, { deny: [{ target: 'secrets', permission: 'read' }] });

    expect(await call('Grep', { pattern: 'probe' })).toEqual({
      summary:
        'Found matches in 3 files (ignore files not applied: .git/info/exclude (a symlink), .ignore (a symlink), .rgignore (a symlink))',
      content: guesses.map(box.at).join('\n'),
    });
  });

  it('finishes at once over ignore files that are /dev/zero or a FIFO', async () => {
    box = sandbox({ 'a.txt': 'needle\n' });
    fs.symlinkSync('/dev/zero', box.at('.rgignore')); // ripgrep read it without end, toward all memory
    execFileSync('mkfifo', [box.at('.ignore')]); // ripgrep blocked on it until the tool deadline
    const { call } = fileTools(box.project);
    // A bound, not a wait: without the fix the call is still running when it fires.
    const result = await call('Grep', { pattern: 'needle' }, AbortSignal.timeout(3000));
    expect(result).toEqual({
      summary:
        'Found matches in 1 file (ignore files not applied: .ignore (not a regular file), .rgignore (a symlink))',
      content: box.at('a.txt'),
    });
  });
});
