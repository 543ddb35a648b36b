import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import { Scope } from '../../../../core/scope/Scope.js';
import { searchVerified, type SearchPlan } from '../../../../plugins/tools/grep/searchVerified.js';
import { sandbox } from '../toolHarness.js';

let box: ReturnType<typeof sandbox>;
afterEach(() => box?.remove());

const openFds = () => fs.readdirSync('/proc/self/fd').length;
const plan = (base: string, pattern: string): SearchPlan => ({
  base,
  listArgs: [],
  searchArgs: ['--files-with-matches', '--null', `--regexp=${pattern}`],
  separator: '\0',
  fileOf: (line) => line,
});

(fs.existsSync('/proc/self/fd') ? describe : describe.skip)('searchVerified', () => {
  it('searches in batches, keeps the walk order across them, and leaves no descriptor open', async () => {
    const names = ['a', 'b/c', 'b/d', 'e', 'f/g/h', 'i', 'j'].map((n) => `${n}.txt`);
    box = sandbox(Object.fromEntries(names.map((n) => [n, 'hit\n'])));
    box.write('miss.txt', 'nothing\n');
    const before = openFds();
    const seen: string[] = [];
    const run = await searchVerified(
      plan(box.project, 'hit'),
      { scope: new Scope(undefined, box.project), signal: new AbortController().signal, batchFiles: 2 },
      (file) => seen.push(file),
    );
    expect(run).toEqual({ complete: true, skipped: [], ignoreSkipped: [] });
    expect(seen).toEqual(names.map(box.at).sort());
    expect(openFds()).toBeLessThanOrEqual(before); // a leak adds; the worker may close one of its own meanwhile
  });

  it('closes what it opened when ripgrep refuses the search', async () => {
    box = sandbox({ 'a.txt': 'x\n', 'b.txt': 'x\n', 'c.txt': 'x\n' });
    const before = openFds();
    await expect(
      searchVerified(
        plan(box.project, 'x('),
        { scope: new Scope(undefined, box.project), signal: new AbortController().signal, batchFiles: 1 },
        () => undefined,
      ),
    ).rejects.toThrow(/invalid regex/);
    expect(openFds()).toBeLessThanOrEqual(before); // a leak adds; the worker may close one of its own meanwhile
  });
});
