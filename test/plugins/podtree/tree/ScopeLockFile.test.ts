import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { registerTopLevel } from '../../../../plugins/podtree/tree/allocationTable.js';
import { ScopeLockFile } from '../../../../plugins/podtree/tree/ScopeLockFile.js';

const base = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-lock-')), 'run');

describe('ScopeLockFile', () => {
  it("creates a 0600 file in a 0700 directory and writes pretty JSON in the original's shape", async () => {
    const dir = base();
    const lock = ScopeLockFile.inBase(dir);
    await lock.update((t) =>
      registerTopLevel(t, {
        pod_name: 'root',
        pid: 12,
        socket: '/s',
        scope_allow: [{ target: '/p', permission: 'write', recursive: true }],
      }),
    );
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(lock.file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(lock.file, 'utf8');
    expect(text).toContain('\n  "allocations": [\n');
    expect(JSON.parse(text)).toEqual({
      allocations: [
        {
          pod_name: 'root',
          pid: 12,
          socket: '/s',
          scope_allow: [{ target: '/p', permission: 'write', recursive: true }],
          delegated_from: null,
          scope_deny: [],
          origin: 'started',
        },
      ],
    });
    expect(fs.readdirSync(dir)).toEqual(['scope.lock']); // no lock directory or temp file left
  });

  it('reads a file written by the original (no yoi fields) and an empty file', async () => {
    const dir = base();
    fs.mkdirSync(dir, { recursive: true });
    const lock = ScopeLockFile.inBase(dir);
    fs.writeFileSync(lock.file, '');
    expect(await lock.read()).toEqual({ allocations: [] });
    fs.writeFileSync(
      lock.file,
      JSON.stringify({
        allocations: [
          {
            pod_name: 'a',
            pid: 1,
            socket: '/a',
            scope_allow: [{ target: '/x', permission: 'write', recursive: true }],
            delegated_from: null,
          },
          {
            pod_name: 'b',
            pid: 2,
            socket: '/b',
            scope_allow: [{ target: '/x/y', permission: 'read' }],
            delegated_from: 'a',
          },
        ],
      }),
    );
    const t = await lock.read();
    expect(t.allocations.map((a) => [a.origin, a.scope_allow[0].recursive])).toEqual([
      ['started', true],
      ['delegated', true],
    ]);
  });

  it('serialises concurrent updates: none is lost', async () => {
    const lock = ScopeLockFile.inBase(base());
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        lock.update((t) => {
          registerTopLevel(t, { pod_name: `p${i}`, pid: i + 1, socket: `/s/${i}`, scope_allow: [] });
        }),
      ),
    );
    expect((await lock.read()).allocations.map((a) => a.pod_name).sort()).toEqual(
      Array.from({ length: 25 }, (_, i) => `p${i}`).sort(),
    );
  });

  it('a failing operation leaves the file unchanged; an invalid file is one clear error', async () => {
    const lock = ScopeLockFile.inBase(base());
    await lock.update((t) => registerTopLevel(t, { pod_name: 'a', pid: 1, socket: '/a', scope_allow: [] }));
    const before = fs.readFileSync(lock.file, 'utf8');
    await expect(
      lock.update((t) => {
        t.allocations.length = 0;
        throw new Error('boom');
      }),
    ).rejects.toThrow(`the scope lock ${lock.file} cannot be used: boom`);
    expect(fs.readFileSync(lock.file, 'utf8')).toBe(before);
    fs.writeFileSync(lock.file, '{"allocations":[{"pod_name":"a"}]}');
    await expect(lock.read()).rejects.toMatchObject({
      code: 'YOI_ERR_SCOPE_LOCK',
      message: expect.stringMatching(/allocations\[0\]\.pid: expected number.*delete it when no pod is running/),
    });
    fs.writeFileSync(lock.file, '{not json');
    await expect(lock.read()).rejects.toThrow(/not valid JSON/);
  });
});
