import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { hotCommand } from '../../../cli/hot/hotCommands.js';
import { makeProject } from '../../support/startTestPod.js';
import { startPodProcess, yoi } from '../../support/runCli.js';

/**
 * The hot commands run from the bundle without oclif's command discovery; everything a user
 * sees must be what oclif prints. Each command line runs twice, through the fast path and with
 * `YOI_NO_FAST_PATH=1` (oclif), against a running pod and against none.
 */
describe('the fast path of bin/run.js', () => {
  let dir: string;
  let env: Record<string, string>;
  let stop: () => void;

  beforeAll(async () => {
    dir = makeProject({ 'notes.txt': 'hello\n' });
    env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
    const pod = await startPodProcess(['--name', 'fast'], { cwd: dir, env });
    stop = () => pod.child.kill('SIGKILL');
  }, 60_000);
  afterAll(() => {
    stop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const both = (args: string[], input?: string) => {
    const fast = yoi(args, { cwd: dir, env, input });
    const oclif = yoi(args, { cwd: dir, env: { ...env, YOI_NO_FAST_PATH: '1' }, input });
    return { fast, oclif };
  };

  const lines: string[][] = [
    ['send', 'hi there', '--pod', 'fast'],
    ['send', '--pod', 'fast', '--file', 'notes.txt', '--json', 'look'],
    ['send', '--pod', 'fast', '-q', '--', '--not-a-flag'],
    ['send', '--pod', 'fast'],
    ['send', 'x', '--pod', 'fast', '--socket', '/tmp/nope.sock'],
    ['send', 'x', '--pod', 'fast', '--quiet', '--json'],
    ['send', 'x', '--pod', 'fast', '--segment', '{bad json'],
    ['send', 'x', '--pod', 'fast', '--bogus'],
    ['send', 'x', '--pod'],
    ['send', 'x', '--pod', 'absent'],
    ['send', 'x', '--pod', 'absent', '--json'],
    ['send', 'x', '--pod', '../evil'],
    ['history', '--pod', 'fast'],
    ['history', '--pod', 'fast', '--json'],
    ['history', '--pod', 'fast', 'extra'],
    ['history', '--pod', 'fast', '--chain', '--unknown'],
    ['cancel', '--pod', 'fast'],
    ['cancel', '--pod', 'fast', '--json'],
    ['pause', '--pod', 'fast'],
    ['resume', '--pod', 'fast', '--json'],
    ['pod', 'status', '--pod', 'fast', '--json'],
    ['pod', 'status', '--pod', 'absent'],
    ['pod', 'stop', '--pod', 'absent'],
    ['pod', 'start', '--name', 'fast'],
    ['pod', 'start', '--name', '../x'],
    ['pod', 'start', '--callback', 'x'],
    ['send', '--help'],
    ['history', '-h'],
  ];

  it.each(lines.map((l) => [l.join(' '), l]))(
    '`yoi %s`: the same stdout, stderr and exit code as through oclif',
    (_name, args) => {
      const { fast, oclif } = both(args as string[]);
      // What differs between two runs in a row is the pod's, not the client's: the context grows
      // with the history, and seq and turn numbers count on. Compare the rest.
      const normal = (s: string) =>
        s
          .replace(/context [\d,]+ tokens/g, 'context N tokens')
          .replace(/"(input_tokens|output_tokens|seq|turn)":\d+/g, '"$1":N')
          .replace(/"(id|session_id|new_session_id)":"[^"]*"/g, '"$1":"…"')
          .replace(/"ts":\d+/g, '"ts":N');
      expect({ status: fast.status, stdout: normal(fast.stdout), stderr: fast.stderr }).toEqual({
        status: oclif.status,
        stdout: normal(oclif.stdout),
        stderr: oclif.stderr,
      });
    },
    60_000,
  );

  it('takes only the hot commands, and leaves to oclif what oclif itself answers', () => {
    expect(hotCommand(['send', 'hi'], {})).toEqual({ id: 'send', argv: ['hi'] });
    expect(hotCommand(['pod', 'status', '--json'], {})).toEqual({ id: 'pod:status', argv: ['--json'] });
    expect(hotCommand(['send', 'a', '--', '--help'], {})).toEqual({ id: 'send', argv: ['a', '--', '--help'] });
    for (const argv of [
      ['send', '--help'],
      ['cancel', '-h'],
      ['history', 'x'],
      ['pod', 'list'],
      ['pod:status'],
      ['attach'],
      ['sessions'],
      ['pod'],
      [],
    ]) {
      expect(hotCommand(argv, {})).toBeUndefined();
    }
    expect(hotCommand(['send', 'hi'], { DEBUG: '*' })).toBeUndefined();
    expect(hotCommand(['send', 'hi'], { YOI_NO_FAST_PATH: '1' })).toBeUndefined();
  });
});
