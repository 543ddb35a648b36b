import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import type { TestPod } from '../../support/startTestPod.js';
import { Watch, call, reply, scriptedPod, startRun } from './permissionsHarness.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

const ASK_READ = { rules: [{ tool: 'Read', action: 'ask' }] };
const readA = call('Read', { file_path: 'a.txt' });
const savedFile = (dir: string) => path.join(fs.realpathSync(dir), '.yoi', 'permissions.json');

describe('allow_always and reject_always', () => {
  it('allow_always saves a rule in .yoi/permissions.json (0600) that applies at once and after a restart', async () => {
    tp = await scriptedPod([readA, readA, call('Read', { file_path: 'b.txt' })], {
      permissions: ASK_READ,
      files: { 'a.txt': 'alpha', 'b.txt': 'beta' },
    });
    const dir = tp.dir;
    const w = await Watch.on(tp);
    const { ended } = await startRun(w.client, 'go');
    const asked = await w.request();
    await reply(w.client, asked.id, 'allow_always');
    // The second call of a.txt runs without asking; b.txt is another file: asked.
    const second = await w.request((r) => r.id !== asked.id);
    expect(second.summary).toBe('Read b.txt');
    await reply(w.client, second.id, 'reject_once');
    await ended;
    expect(w.results().map((r) => r.is_error)).toEqual([false, false, true]);

    const file = savedFile(dir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      rules: [
        {
          tool: 'Read',
          exact: path.join(fs.realpathSync(dir), 'a.txt'),
          action: 'allow',
          added_at: expect.any(Number),
          by: 'test/1',
        },
      ],
    });
    await w.client.close();
    await tp.stop();

    tp = await scriptedPod([readA], { dir, permissions: ASK_READ });
    const again = await Watch.on(tp);
    await (
      await startRun(again.client, 'go')
    ).ended;
    expect(again.ext).toEqual([]);
    expect(again.results()[0]).toMatchObject({ is_error: false, output: expect.stringContaining('alpha') });
  });

  it('reject_always saves a deny: the same command is refused at once, without asking', async () => {
    tp = await scriptedPod([readA, readA], { permissions: ASK_READ, files: { 'a.txt': 'a' } });
    const w = await Watch.on(tp);
    const { ended } = await startRun(w.client, 'go');
    const asked = await w.request();
    await reply(w.client, asked.id, 'reject_always', { message: 'never that file' });
    await ended;
    expect(w.ext.filter((e) => e.event === 'permission_request')).toHaveLength(1);
    const [first, second] = w.results();
    expect(first).toMatchObject({
      is_error: true,
      summary: 'Refused: the user rejected this Read call (and every call like it): never that file',
    });
    expect(second.summary).toMatch(
      /^Refused: denied by saved rule \{tool: Read, exact: ".*a\.txt", action: deny\} \(\.yoi\/permissions\.json\)$/,
    );
  });

  it('a rule saved by another pod of the project applies here at once', async () => {
    tp = await scriptedPod([readA], { permissions: ASK_READ, files: { 'a.txt': 'a' } });
    const file = savedFile(tp.dir);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ version: 1, rules: [{ tool: 'Read', action: 'allow' }] }), { mode: 0o600 });
    const w = await Watch.on(tp);
    await (
      await startRun(w.client, 'go')
    ).ended;
    expect(w.ext).toEqual([]);
    expect(w.results()[0].is_error).toBe(false);
  });
});

describe('an unusable permissions file', () => {
  const cases: [string, (file: string, dir: string) => void, RegExp][] = [
    ['not JSON', (f) => fs.writeFileSync(f, '{"version":1,', { mode: 0o600 }), /not valid JSON/],
    [
      'the wrong shape',
      (f) =>
        fs.writeFileSync(f, JSON.stringify({ version: 1, rules: [{ tool: 'Read', action: 'ask' }] }), { mode: 0o600 }),
      /rules\[0\]\.action: expected "allow" or "deny"/,
    ],
    [
      'writable by others',
      (f) => {
        fs.writeFileSync(f, JSON.stringify({ version: 1, rules: [{ tool: 'Read', action: 'allow' }] }));
        fs.chmodSync(f, 0o666);
      },
      /others may write it/,
    ],
    [
      'in a .yoi/ others may write',
      (f) => {
        fs.writeFileSync(f, JSON.stringify({ version: 1, rules: [{ tool: 'Read', action: 'allow' }] }), {
          mode: 0o600,
        });
        fs.chmodSync(path.dirname(f), 0o777);
      },
      /others may write .*\.yoi/,
    ],
    [
      'a symbolic link',
      (f, dir) => {
        fs.writeFileSync(
          path.join(dir, 'elsewhere.json'),
          JSON.stringify({ version: 1, rules: [{ tool: 'Read', action: 'allow' }] }),
          { mode: 0o600 },
        );
        fs.symlinkSync(path.join(dir, 'elsewhere.json'), f);
      },
      /symbolic link/,
    ],
  ];
  it.each(cases)(
    '(%s) gives no rules, one alert, and is never overwritten: allow_always still allows the call',
    async (_name, make, why) => {
      tp = await scriptedPod([readA, readA], { permissions: ASK_READ, files: { 'a.txt': 'a' } });
      const file = savedFile(tp.dir);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      make(file, fs.realpathSync(tp.dir));
      const before = fs.readFileSync(file, 'utf8');
      const w = await Watch.on(tp);
      const { ended } = await startRun(w.client, 'go');
      const asked = await w.request();
      await reply(w.client, asked.id, 'allow_always');
      const second = await w.request((r) => r.id !== asked.id); // nothing saved: asked again
      await reply(w.client, second.id, 'allow_once');
      await ended;
      expect(w.results().map((r) => r.is_error)).toEqual([false, false]);
      const alerts = w.events.flatMap((e) => (e.event === 'alert' ? [e.data.message] : []));
      expect(alerts.filter((m) => m.includes('saved permission rules are ignored'))).toEqual([
        expect.stringMatching(why),
      ]);
      expect(alerts).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `the rule for permission request ${asked.id} was not saved: the permissions file .* cannot be used`,
          ),
        ),
      );
      expect(fs.readFileSync(file, 'utf8')).toBe(before);
    },
  );
});

describe('the control plane', () => {
  it('a tool cannot write the saved rules or the config file, whatever the policy says (replayed attack)', async () => {
    const grant = JSON.stringify({ version: 1, rules: [{ tool: '*', action: 'allow' }] });
    tp = await scriptedPod(
      [
        {
          tool_calls: [
            { name: 'Write', arguments: { file_path: '.yoi/permissions.json', content: grant } },
            { name: 'Write', arguments: { file_path: './.yoi/../.yoi/.permissions.json.x.tmp', content: grant } },
            {
              name: 'Write',
              arguments: { file_path: 'yoi.config.json', content: '{"permissions":{"default":"allow"}}' },
            },
            { name: 'Edit', arguments: { file_path: 'yoi.config.json', old_string: 'scripted', new_string: 'echo' } },
          ],
        },
      ],
      { permissions: { default: 'allow' } },
    );
    const w = await Watch.on(tp);
    await (
      await startRun(w.client, 'go')
    ).ended;
    for (const r of w.results())
      expect(r).toMatchObject({
        is_error: true,
        summary: expect.stringMatching(
          /^cannot write .*: it is part of the pod's control plane \((its state|its config)\); the pod's tools cannot write it$/,
        ),
      });
    expect(fs.existsSync(savedFile(tp.dir))).toBe(false);
    expect(fs.readFileSync(path.join(tp.dir, 'yoi.config.json'), 'utf8')).toContain('scripted');
  });
});
