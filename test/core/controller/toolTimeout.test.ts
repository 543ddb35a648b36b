import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { callWithDeadline } from '../../../core/controller/callWithDeadline.js';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import type { Event } from '../../../core/protocol/index.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { RawClient } from '../../support/rawClient.js';
import { startPodProcess } from '../../support/runCli.js';
import {
  makeProject,
  recorder,
  runEnded,
  startTestPod,
  text,
  until,
  type TestPod,
} from '../../support/startTestPod.js';
import { waitTool } from '../../support/testPlugins.js';

/** Signals the `Hang` tool was given, in call order. */
const hangSignals: AbortSignal[] = [];
/** A `Hang` tool that never finishes and ignores its signal (the worst a plugin can do). */
const hangTool = definePlugin({
  name: 'test:hang',
  apply(host) {
    host.hooks.tools.for('Hang').tap('test:hang', () => ({
      name: 'Hang',
      description: 'Never returns.',
      input: z.object({}),
      execute(_input, ctx) {
        hangSignals.push(ctx.signal);
        return new Promise(() => undefined);
      },
    }));
  },
});

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
  hangSignals.length = 0;
});

const results = (events: Event[]) => events.filter((e) => e.event === 'tool_result').map((e) => e.data);

async function runOnce(pod: TestPod, input = 'go') {
  const c = await pod.connect();
  const events = recorder(c);
  const ended = runEnded(c, 60_000);
  await c.request({ method: 'run', params: { input: [text(input)] } });
  const end = await ended;
  await c.close();
  return { events, end };
}

describe('every tool call has a timeout (limits.toolTimeoutMs)', () => {
  it('a tool that never resolves gets a timeout result, its signal aborted; the pod keeps running', async () => {
    tp = await startTestPod({
      files: {
        's.json': JSON.stringify([
          {
            tool_calls: [
              { name: 'Hang', arguments: {} },
              { name: 'Wait', arguments: { ms: 1 } },
            ],
          },
          { text: 'after' },
        ]),
      },
      config: { model: { provider: 'scripted', script: 's.json' }, limits: { toolTimeoutMs: 300 } },
      plugins: [...defaultPlugins(), hangTool(), waitTool()],
    });
    const { events, end } = await runOnce(tp);
    expect(end).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    expect(results(events)).toEqual([
      {
        id: 'call_1',
        summary: 'Timed out: Hang did not finish within 300 ms (limits.toolTimeoutMs) and was stopped',
        is_error: true,
      },
      { id: 'call_2', summary: 'waited 1 ms', output: 'done after 1 ms', is_error: false },
    ]);
    expect(hangSignals).toHaveLength(1);
    expect(hangSignals[0].aborted).toBe(true);
    const alerts = events.filter((e) => e.event === 'alert').map((e) => e.event === 'alert' && e.data.message);
    expect(alerts).toContain('tool `Hang` timed out after 300 ms (limits.toolTimeoutMs)');
    // The timeout is in the history like any result, and the pod answers the next run.
    expect(tp.pod.controller.history.find((i) => i.type === 'tool_result' && i.call_id === 'call_1')).toMatchObject({
      is_error: true,
    });
    const next = await runOnce(tp, 'still there?');
    expect(next.end).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    expect(tp.pod.status).toBe('idle');
  });

  it('a FIFO as the ignore file, which once blocked ripgrep until the timeout, no longer holds Grep', async () => {
    tp = await startTestPod({
      files: {
        's.json': JSON.stringify([
          { tool_calls: [{ name: 'Grep', arguments: { pattern: 'needle' } }] },
          { text: 'after' },
        ]),
        'a.txt': 'needle\n',
      },
      config: { model: { provider: 'scripted', script: 's.json' }, limits: { toolTimeoutMs: 1000 } },
    });
    fs.mkdirSync(path.join(tp.dir, '.git'));
    execFileSync('mkfifo', [path.join(tp.dir, '.gitignore')]); // ripgrep blocks opening it
    const { events, end } = await runOnce(tp);
    expect(end).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    // The pod reads ignore files itself and never opens a FIFO (grep/ignoreRules).
    expect(results(events)).toEqual([
      expect.objectContaining({
        id: 'call_1',
        summary: expect.stringContaining('(ignore files not applied: .gitignore (not a regular file))'),
        is_error: false,
      }),
    ]);
    // No ripgrep is left behind (SIGKILL takes effect asynchronously: wait for it to be gone).
    const dir = tp.dir;
    for (const deadline = Date.now() + 10_000; ripgrepsIn(dir).length > 0 && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 20));
    expect(ripgrepsIn(dir)).toEqual([]);
  });

  it('cancel ends a run at once even while a tool ignores its signal', async () => {
    tp = await startTestPod({
      files: { 's.json': JSON.stringify([{ tool_calls: [{ name: 'Hang', arguments: {} }] }]) },
      config: { model: { provider: 'scripted', script: 's.json' } },
      plugins: [...defaultPlugins(), hangTool()],
    });
    const c = await tp.connect();
    const events = recorder(c);
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await until(events, (e) => e.event === 'tool_call_done');
    await c.request({ method: 'cancel' });
    expect(await ended).toMatchObject({ event: 'run_end', data: { result: 'cancelled' } });
    expect(hangSignals[0].aborted).toBe(true);
    await c.close();
  });
});

describe('callWithDeadline', () => {
  it('returns the value, or times out, or rejects with the abort reason, without waiting for the call', async () => {
    const never = () => new Promise<number>(() => undefined);
    expect(await callWithDeadline(async () => 7, { signal: new AbortController().signal, timeoutMs: 10_000 })).toEqual({
      timedOut: false,
      value: 7,
    });
    expect(await callWithDeadline(never, { signal: new AbortController().signal, timeoutMs: 5 })).toEqual({
      timedOut: true,
    });
    const abort = new AbortController();
    const pending = callWithDeadline(never, { signal: abort.signal, timeoutMs: 10_000 });
    abort.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    // A call that fails after it was abandoned is not an unhandled rejection.
    expect(
      await callWithDeadline(
        () => new Promise<number>((_, reject) => setTimeout(() => reject(new Error('late')), 20)),
        {
          signal: new AbortController().signal,
          timeoutMs: 1,
        },
      ),
    ).toEqual({ timedOut: true });
    await new Promise((r) => setTimeout(r, 40));
  });
});

describe('many tool calls at once', () => {
  it("runs a reply's 20 calls together without Node's listener-leak warning on the run's signal (the built pod)", async () => {
    const dir = makeProject({ 'notes.txt': 'hello\n' });
    const calls = Array.from({ length: 20 }, () => ({ name: 'Read', arguments: { file_path: 'notes.txt' } }));
    fs.writeFileSync(path.join(dir, 's.json'), JSON.stringify([{ tool_calls: calls }, { text: 'after' }]));
    fs.writeFileSync(
      path.join(dir, 'yoi.config.json'),
      JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
    );
    const pod = await startPodProcess(['--name', 'calls20'], {
      cwd: dir,
      env: { YOI_RUNTIME_DIR: path.join(dir, 'run') },
    });
    try {
      const c = await RawClient.connect(pod.socket);
      c.write('{"method":"hello","params":{"protocol_version":2}}\n');
      c.write('{"method":"run","params":{"input":[{"kind":"text","content":"go"}]}}\n');
      const end = await c.until((e) => e.event === 'run_end', 60_000);
      expect(end).toMatchObject({ data: { result: 'finished' } });
      expect(c.events.filter((e) => e.event === 'tool_result' && !e.data.is_error)).toHaveLength(20);
      c.destroy();
      pod.child.kill('SIGTERM');
      await pod.exited;
      // Node prints the warning on the pod's stderr (one line per signal that passed 10 listeners).
      expect(pod.stderr()).not.toMatch(/MaxListenersExceededWarning/);
    } finally {
      pod.child.kill('SIGKILL');
    }
  });
});

/** Live ripgrep processes whose working directory or arguments are in `dir`. */
function ripgrepsIn(dir: string): number[] {
  const found: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.includes('/rg\0') && cmd.includes(dir)) found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
