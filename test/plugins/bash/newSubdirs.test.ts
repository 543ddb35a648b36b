import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import { bashFixture, describeSandboxed, eventually, tempTree } from './bashHarness.js';

const trees: ReturnType<typeof tempTree>[] = [];
afterEach(() => {
  for (const t of trees.splice(0)) t.remove();
});

/** Only `top` itself is writable (non-recursive): its subdirectories are not. */
function podWithNonRecursiveTop() {
  const t = tempTree({ 'top/sub/x': 'x\n' });
  trees.push(t);
  const scope = {
    allow: [
      { target: '.', permission: 'read' as const },
      { target: 'top', permission: 'write' as const, recursive: false },
    ],
  };
  return { t, ...bashFixture(t.project, { scope }) };
}

/** Every path below `dir`, relative to it, sorted. */
function listing(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

describeSandboxed('newSubdirs: a non-recursive write rule', () => {
  it('a directory the command creates under it keeps nothing outside the write scope (replayed attack)', async () => {
    const { t, call, scope } = podWithNonRecursiveTop();
    const result = await call({
      command:
        'echo ok > top/direct.txt && mkdir -p top/new/a/b && echo ESCAPED > top/new/a/b/deep.txt && echo no > top/new/f && ln -s /etc top/new/l',
    });
    // What the scope grants stays: files in top, and top/new itself (an entry of top), now empty.
    expect(listing(t.at('top'))).toEqual(['direct.txt', 'new', 'sub', 'sub/x']);
    expect(scope.check(t.at('top/new/f'), 'write').ok).toBe(false);
    expect(result.is_error).toBe(true);
    expect(result.summary).toMatch(
      /^Command exited with code 0; removed .*top\/new\/a.*: outside the pod's write scope/,
    );
    // The next command finds top/new read-only, like every subdirectory that exists when it starts.
    const next = await call({ command: 'echo no > top/new/f' });
    expect(next.content).toMatch(/Read-only file system/);
    expect(listing(t.at('top/new'))).toEqual([]);
  });

  it('is checked when the last of overlapping commands ends, not before', async () => {
    const { t, call } = podWithNonRecursiveTop();
    const first = call({
      command:
        'mkdir top/new && touch top/new/started && while [ ! -e top/go ]; do sleep 0.02; done; echo x > top/new/late',
    });
    await eventually(() => fs.existsSync(t.at('top/new/started')), 'the first command runs');
    // A command that starts and ends meanwhile does not take top/new as the user's.
    expect((await call({ command: 'touch top/second' })).summary).toBe('Command exited with code 0');
    expect(fs.existsSync(t.at('top/new/started'))).toBe(true);
    fs.writeFileSync(t.at('top/go'), ''); // only now may the first command end
    const result = await first;
    expect(result.summary).toMatch(
      /removed .*top\/new\/started.*top\/new\/late|removed .*top\/new\/late.*top\/new\/started/,
    );
    expect(listing(t.at('top/new'))).toEqual([]);
  });
});
