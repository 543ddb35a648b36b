import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Event } from '../../../core/protocol/index.js';
import { startDirSwapper, swapperUnavailable } from '../../support/dirSwapper.js';
import { recorder, runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

/**
 * The directory-swap attack, replayed: while a real process exchanges the in-scope directory
 * `d` with a symlink to an outside directory full of secrets, a real pod runs many parallel
 * Read, Grep, Glob and Write calls and `@file` references into `d`. Before files were verified
 * through what was opened, 319 of 3,000 Reads returned outside content and 471 Writes landed
 * outside. Every secret carries the marker below; none may reach a client or the history, and
 * nothing may be created outside.
 */
const MARKER = 'SECRET-9f3a';
const ROUNDS = 6;
const unavailable = swapperUnavailable();
const maybe = unavailable ? it.skip : it;
if (unavailable) console.warn(`skipping the directory-swap race test: ${unavailable}`);

let root: string;
let tp: TestPod | undefined;
afterAll(async () => {
  await tp?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const inside = { 'a.txt': 'inside a\n', 'b.txt': 'inside b\n', 'sub/c.txt': 'inside c\n' };
const outside = {
  'a.txt': `${MARKER} a\n`,
  'b.txt': `${MARKER} b\n`,
  'sub/c.txt': `${MARKER} c\n`,
  [`only-${MARKER}.txt`]: `${MARKER} name\n`,
};

function round(r: number) {
  const calls: { name: string; arguments: Record<string, unknown> }[] = [];
  for (let i = 0; i < 8; i++) calls.push({ name: 'Read', arguments: { file_path: i % 2 ? 'd/a.txt' : 'd/sub/c.txt' } });
  for (let i = 0; i < 3; i++)
    calls.push({ name: 'Grep', arguments: { pattern: 'SECRET|inside|name', path: 'd', output_mode: 'content' } });
  calls.push(
    { name: 'Grep', arguments: { pattern: '.', path: 'd' } },
    { name: 'Grep', arguments: { pattern: '.', path: 'd', output_mode: 'count' } },
  );
  for (let i = 0; i < 3; i++) calls.push({ name: 'Glob', arguments: { pattern: '**/*', path: 'd' } });
  for (let i = 0; i < 6; i++)
    calls.push({ name: 'Write', arguments: { file_path: `d/w-${r}-${i}.txt`, content: `written ${r} ${i}\n` } });
  for (let i = 0; i < 2; i++)
    calls.push({ name: 'Write', arguments: { file_path: `d/new-${r}-${i}/deep/f.txt`, content: 'nested\n' } });
  return calls;
}

function tree(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('a directory swapped for a symlink while tools run', () => {
  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-race-')));
  });

  maybe(
    'leaks no outside byte to any Read, Grep, Glob or @file, and lands no Write outside',
    async () => {
      const project = path.join(root, 'project');
      const out = path.join(root, 'outside');
      for (const [rel, content] of Object.entries(outside)) {
        fs.mkdirSync(path.dirname(path.join(out, rel)), { recursive: true });
        fs.writeFileSync(path.join(out, rel), content);
      }
      const files: Record<string, string> = {
        's.json': JSON.stringify(
          Array.from({ length: ROUNDS }, (_, r) => [{ tool_calls: round(r) }, { text: 'done' }]).flat(),
        ),
      };
      for (const [rel, content] of Object.entries(inside)) files[`d/${rel}`] = content;
      fs.mkdirSync(project);
      for (const [rel, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(project, rel)), { recursive: true });
        fs.writeFileSync(path.join(project, rel), content);
      }
      fs.symlinkSync(out, path.join(project, 'l'));
      fs.writeFileSync(
        path.join(project, 'yoi.config.json'),
        JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
      );
      const outsideBefore = tree(out);
      tp = await startTestPod({ dir: project });

      const c = await tp.connect();
      const events: Event[] = recorder(c);
      const swapper = await startDirSwapper(path.join(project, 'd'), path.join(project, 'l'));
      let swaps: number;
      try {
        for (let r = 0; r < ROUNDS; r++) {
          const ended = runEnded(c, 120_000);
          await c.request({
            method: 'run',
            params: {
              input: [
                text('go'),
                { kind: 'file_ref', path: 'd/a.txt' },
                { kind: 'file_ref', path: 'd/sub/c.txt' },
                { kind: 'file_ref', path: 'd' },
                { kind: 'file_ref', path: 'd/sub' },
              ],
            },
          });
          expect(await ended).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
        }
      } finally {
        swaps = await swapper.stop();
      }
      await c.close();

      const results = events
        .filter((e) => e.event === 'tool_result')
        .map((e) => e.data as { summary: string; output?: string; is_error: boolean });
      expect(results).toHaveLength(ROUNDS * round(0).length);
      // The race was live: the swapper kept swapping and some calls were caught by it.
      expect(swaps).toBeGreaterThan(100);
      expect(results.filter((r) => r.is_error).length).toBeGreaterThan(0);

      const leaked = results.filter((r) => `${r.summary}\n${r.output ?? ''}`.includes(MARKER));
      expect(leaked).toEqual([]);
      const history = JSON.stringify(tp.pod.controller.history);
      expect(history.includes(MARKER)).toBe(false);
      expect(JSON.stringify(events).includes(MARKER)).toBe(false);
      // Nothing was written outside: not a file, not a directory, not a temp file.
      expect(tree(out)).toEqual(outsideBefore);
      // Every Write reported as done is in the (real, in-scope) directory, wherever the swap left it.
      const real = fs.lstatSync(path.join(project, 'd')).isSymbolicLink()
        ? path.join(project, 'l')
        : path.join(project, 'd');
      const created = results
        .map((r) => /^Created \S+\/d\/(\S+) \(/.exec(r.summary)?.[1])
        .filter((f): f is string => f !== undefined);
      for (const rel of created) expect(fs.existsSync(path.join(real, rel))).toBe(true);
    },
    180_000,
  );
});
