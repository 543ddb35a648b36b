import { afterEach, describe, expect, it } from '@jest/globals';
import { makeProject } from '../support/startTestPod.js';
import { yoiAsync } from '../support/runCli.js';
import { startV1Pod, type V1Pod } from '../support/v1Pod.js';
import { attachTo, texts } from './attach/attachHarness.js';

/**
 * Every client against a v1-only pod (the original Rust yoi), played by the stand-in of
 * test/support/v1Pod.ts: the CLI as real processes, attach's controller in-process. They detect
 * v1 (hello answered with the original's unknown-method error, or not at all) and carry on in v1.
 */

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function v1(opts: Parameters<typeof startV1Pod>[0] = {}): Promise<V1Pod> {
  const pod = await startV1Pod(opts);
  cleanups.push(() => pod.close());
  return pod;
}

const dir = makeProject();
const yoi = (args: string[], input?: string) => yoiAsync(args, { cwd: dir, input, timeoutMs: 60_000 });

describe('the CLI against a v1 pod', () => {
  it('send streams the run and exits 0; --json prints what the pod sent (no made-up events)', async () => {
    const pod = await v1({ run: 'tool' });
    const r = await yoi(['send', '--socket', pod.socket, 'hi', 'there']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      '✓ Read src/math.ts → 6 lines\n\nv1 says: hi there\n2 requests · context 120 tokens · 10 output tokens\n',
    );
    expect(r.status).toBe(0);
    const json = await yoi(['send', '--socket', pod.socket, '--json', 'again']);
    const events = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; request_id?: string });
    expect(events.map((e) => e.event)).toEqual([
      'user_message',
      'turn_start',
      'tool_call_start',
      'tool_call_done',
      'usage',
      'turn_end',
      'tool_result',
      'turn_start',
      'text_delta',
      'text_done',
      'usage',
      'turn_end',
      'run_end',
    ]);
    expect(pod.received.filter((l) => l.includes('"method":"run"'))).toEqual([
      '{"method":"run","params":{"input":[{"kind":"text","content":"hi there"}]}}',
      '{"method":"run","params":{"input":[{"kind":"text","content":"again"}]}}',
    ]);
  });

  it('history, pod status, refusals, a v2-only method and pod stop: each one line and an exit', async () => {
    const pod = await v1({ alerts: ['from before'] });
    await yoi(['send', '--socket', pod.socket, 'remember me']);
    expect((await yoi(['history', '--socket', pod.socket])).stdout).toBe(
      'user: remember me\nassistant: v1 says: remember me\n',
    );
    const status = JSON.parse((await yoi(['pod', 'status', '--socket', pod.socket, '--json'])).stdout);
    expect(status).toMatchObject({ pod: 'legacy', status: 'unknown', protocol: 1, provider: 'anthropic', items: 2 });
    const cancel = await yoi(['cancel', '--socket', pod.socket]);
    expect(cancel.stderr).toBe(
      `yoi: no turn is running in pod ${pod.socket}: nothing to cancel [YOI_ERR_REQUEST not_running]\n`,
    );
    expect(cancel.status).toBe(1);
    const resume = await yoi(['resume', '--socket', pod.socket]);
    expect(resume.stderr).toBe(
      `yoi: pod ${pod.socket} is not paused: nothing to resume [YOI_ERR_REQUEST not_paused]\n`,
    );
    const compact = await yoi(['compact', '--socket', pod.socket]);
    expect(compact.stderr).toBe('yoi: the pod speaks protocol v1, which has no `compact` [YOI_ERR_UNSUPPORTED]\n');
    expect(compact.status).toBe(1);
    expect(pod.received.some((l) => l.includes('compact'))).toBe(false);
    const stop = await yoi(['pod', 'stop', '--socket', pod.socket]);
    expect(stop).toMatchObject({ status: 0, stdout: `stopped ${pod.socket}\n` });
  });

  it('a run another client paused: send says so and how to resume', async () => {
    const pod = await v1({ run: 'hold' });
    const send = yoi(['send', '--socket', pod.socket, 'long job']);
    await pod.receivedCount(2); // hello, run
    const busy = await yoi(['send', '--socket', pod.socket, 'me too']);
    expect(busy.stderr).toMatch(
      /^yoi: pod \S+ is already running a turn: wait for it to end \(yoi attach --socket \S+ shows it live\), cancel it with yoi cancel --socket \S+, or queue this input in yoi attach .* \[YOI_ERR_REQUEST already_running\]\n$/,
    );
    expect(busy.status).toBe(1);
    expect((await yoi(['pause', '--socket', pod.socket])).stdout).toBe(`paused (${pod.socket})\n`);
    const r = await send;
    expect(r.stdout).toBe('working\n1 request · context ? tokens · 0 output tokens\n');
    expect(r.stderr).toBe(
      `yoi: the run was paused by another client: resume it with yoi resume --socket ${pod.socket} (yoi attach --socket ${pod.socket} shows it), or abandon it with yoi cancel --socket ${pod.socket} [YOI_ERR_RUN_PAUSED]\n`,
    );
    expect(r.status).toBe(1);
  });

  it('a pod that never answers: every command gives up with one line within its timeout', async () => {
    const pod = await v1({ silent: true });
    const r = await yoi(['history', '--socket', pod.socket]);
    expect(r.stderr).toBe(
      'yoi: the pod did not answer `get_history` within 10000 ms, nor `hello` within 2000 ms: it is not responding (or speaks only protocol v1) [YOI_ERR_TIMEOUT]\n',
    );
    expect(r.status).toBe(1);
  });
});

describe('yoi attach against a v1 pod', () => {
  it('shows the history, sends the input and shows the run', async () => {
    const pod = await v1({ alerts: ['from before'] });
    const h = await attachTo(pod.socket);
    cleanups.push(() => h.stop());
    await h.until((s) => s.connection === 'connected');
    h.type('hello v1\r');
    const s = await h.until(
      (st) => texts(st).includes('assistant: v1 says: hello v1') && st.transcript.status === 'idle',
    );
    expect(texts(s)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('from before'),
        'user: [{"kind":"text","content":"hello v1"}]',
        'assistant: v1 says: hello v1',
      ]),
    );
    expect(texts(s).some((t) => t.includes('invalid method'))).toBe(false); // hello's refusal is not shown
    expect(pod.received.filter((l) => l.startsWith('{"method":"run"'))).toEqual([
      '{"method":"run","params":{"input":[{"kind":"text","content":"hello v1"}]}}',
    ]);
  });
});
