import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import type { Event } from '../../../core/protocol/index.js';
import { makeProject, recorder, runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';
import { describeSandboxed, eventually, processesWith, token } from './bashHarness.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

type Call = { name: string; arguments: Record<string, unknown> };
const bash = (command: string, extra: Record<string, unknown> = {}): Call => ({
  name: 'Bash',
  arguments: { command, ...extra },
});

/** A pod on the scripted provider; `$SOCK` in a command stands for the pod's socket path. */
async function podWith(rounds: Call[][], files: Record<string, string> = {}) {
  const dir = makeProject(files);
  const socket = path.join(dir, 'run', 'test', 'sock');
  const script = [...rounds.map((calls) => ({ tool_calls: calls })), { text: 'done' }];
  fs.writeFileSync(path.join(dir, 's.json'), JSON.stringify(script).replaceAll('$SOCK', socket));
  tp = await startTestPod({
    dir,
    config: {
      model: { provider: 'scripted', script: 's.json' },
      permissions: { rules: [{ tool: 'Bash', action: 'allow' }] },
    },
  });
  expect(tp.socket).toBe(socket);
  return tp;
}

async function run(pod: TestPod, input = 'go', during?: (events: Event[], cancel: () => void) => Promise<void>) {
  const c = await pod.connect();
  const events = recorder(c);
  const ended = runEnded(c, 60_000);
  await c.request({ method: 'run', params: { input: [text(input)] } });
  if (during) await during(events, () => c.send({ method: 'cancel' }));
  const end = await ended;
  await c.close();
  const results = events.flatMap((e) => {
    if (e.event !== 'tool_result') return [];
    const { id: _id, ...rest } = e.data;
    return [rest];
  });
  return { end, results };
}

describeSandboxed('Bash in a pod', () => {
  it('is offered after the file tools; the config file, the session log and the runtime dir stay out of reach inside the write scope', async () => {
    const pod = await podWith(
      [
        [
          bash('echo made > made.txt && cat made.txt'),
          bash('echo "{}" > yoi.config.json'),
          bash('ls .yoi/sessions | wc -l && echo planted > .yoi/sessions/planted.jsonl'),
          bash('echo note > .yoi/knowledge/new.md && echo ok'),
          bash('ls run'),
          bash(
            'node -e \'require("net").connect(process.argv[1]).on("connect", () => console.log("CONNECTED")).on("error", (e) => { console.log(e.code); process.exit(1); })\' $SOCK',
          ),
        ],
      ],
      { '.yoi/knowledge/.keep': '' },
    );
    const tools = pod.pod.greeting.tools;
    expect(tools.slice(tools.indexOf('Read'), tools.indexOf('Bash') + 1)).toEqual([
      'Read',
      'Write',
      'Edit',
      'Glob',
      'Grep',
      'Bash',
    ]);
    const config = fs.readFileSync(path.join(pod.dir, 'yoi.config.json'), 'utf8');

    const { end, results } = await run(pod);
    expect(end).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    const [made, cfg, sessions, knowledge, runtime, socket] = results;
    expect(made).toEqual({ summary: 'Command exited with code 0', output: 'made\n', is_error: false });
    expect(cfg).toMatchObject({
      is_error: true,
      output: expect.stringMatching(/yoi\.config\.json: Read-only file system/),
    });
    expect(sessions).toMatchObject({ is_error: true, output: expect.stringMatching(/^\d+\n.*Read-only file system/s) });
    expect(knowledge).toEqual({ summary: 'Command exited with code 0', output: 'ok\n', is_error: false });
    expect(runtime).toMatchObject({ is_error: true, output: expect.stringMatching(/Permission denied/) });
    expect(socket).toMatchObject({ is_error: true, output: expect.stringMatching(/^EACCES\n$/) });

    expect(fs.readFileSync(path.join(pod.dir, 'made.txt'), 'utf8')).toBe('made\n');
    expect(fs.readFileSync(path.join(pod.dir, 'yoi.config.json'), 'utf8')).toBe(config);
    expect(fs.readdirSync(path.join(pod.dir, '.yoi', 'sessions')).filter((f) => f.includes('planted'))).toEqual([]);
    expect(fs.readFileSync(path.join(pod.dir, '.yoi', 'knowledge', 'new.md'), 'utf8')).toBe('note\n');
  });

  it("a region delegated to a child pod (a write lock) is read-only for the parent's commands", async () => {
    const pod = await podWith([[bash('cat child/a && echo b > child/b'), bash('echo c > other')]], {
      'child/a': 'a\n',
    });
    const lock = pod.pod.scope.lockWrite(path.join(pod.dir, 'child'));
    const { results } = await run(pod);
    lock.release();
    expect(results[0]).toMatchObject({ is_error: true, output: expect.stringMatching(/^a\n.*Read-only file system/s) });
    expect(results[1]).toMatchObject({ is_error: false });
    expect(fs.existsSync(path.join(pod.dir, 'child', 'b'))).toBe(false);
  });

  it("bad input is an error result and the pod keeps running; cancel kills the command's tree", async () => {
    const tag = token();
    const pod = await podWith([
      [{ name: 'Bash', arguments: { command: 42 } }, bash('pwd', { cwd: '/' }), bash('echo fine')],
      [bash(`sleep 600 & setsid bash -c 'sleep 600; :' ${tag} & wait # ${tag}`)],
    ]);
    const { end, results } = await run(pod, 'go', async (events, cancel) => {
      // The setsid'd shell itself (bwrap carries the command line too, before the command runs).
      await eventually(() => processesWith(tag).some((p) => p.cmd.startsWith('bash -c sleep 600')), 'the command runs');
      await eventually(
        () => events.filter((e) => e.event === 'tool_result').length === 3,
        "the first round's results arrived",
      );
      cancel();
    });
    expect(results).toEqual([
      { summary: 'Invalid argument: command: Invalid input: expected string, received number', is_error: true },
      { summary: "cannot run in /: outside the pod's scope", is_error: true },
      { summary: 'Command exited with code 0', output: 'fine\n', is_error: false },
    ]);
    expect(end).toMatchObject({ event: 'run_end', data: { result: 'cancelled' } });
    await eventually(() => processesWith(tag).length === 0, 'the cancelled command is gone');
    const closed = pod.pod.controller.history.filter((i) => i.type === 'tool_result').at(-1);
    expect(closed).toMatchObject({ is_error: true });
    expect(pod.pod.status).toBe('idle');
  });
});
