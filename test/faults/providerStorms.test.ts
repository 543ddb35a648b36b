import { afterEach, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import type { Event } from '../../core/protocol/index.js';
import {
  anthropicStream,
  openAiStream,
  startFakeLlmServer,
  type FakeLlmServer,
  type FakeReply,
  type StreamScript,
} from '../support/fakeLlmServer.js';
import { liveHistory, logEntries, loggedSession } from '../support/logReplay.js';
import { RunLedger } from '../support/runLedger.js';
import { startPodProcess } from '../support/runCli.js';
import { faultCount, faultSeed, seededRandom } from '../support/seededRandom.js';
import { makeProject } from '../support/startTestPod.js';

/**
 * Provider faults against real pod processes and the real provider code (AI SDK over HTTP to a
 * local fake server): stalls, connection resets, 429 and 500 storms. Whatever the fault, a run
 * ends with exactly one terminal event, retries wait as `retry-after` says, other clients are
 * served meanwhile, and the session log holds every run (it replays to the live history, also
 * after a SIGKILL and `--resume`).
 */
const KEY_ENV = 'YOI_TEST_ANTHROPIC_KEY';
const PROVIDERS = {
  'openai-compatible': {
    stream: openAiStream,
    model: (baseURL: string) => ({ provider: 'openai-compatible', baseURL, model: 'local' }),
  },
  anthropic: {
    stream: anthropicStream,
    model: (baseURL: string) => ({ provider: 'anthropic', baseURL, model: 'claude-test', apiKeyEnv: KEY_ENV }),
  },
} as const;
type ProviderName = keyof typeof PROVIDERS;

let fake: FakeLlmServer | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await fake?.close();
  fake = undefined;
});

async function podOn(provider: ProviderName, model: Record<string, unknown>) {
  fake = await startFakeLlmServer();
  const dir = makeProject({
    'yoi.config.json': JSON.stringify({ model: { ...PROVIDERS[provider].model(fake.baseURL), ...model } }),
  });
  const env = { YOI_RUNTIME_DIR: path.join(dir, 'run'), [KEY_ENV]: 'sk-test' };
  const start = async (args: string[] = []) => {
    const pod = await startPodProcess(args, { cwd: dir, env });
    cleanups.push(() => void pod.child.kill('SIGKILL'));
    const ledger = new RunLedger();
    const client = await PodClient.connect({
      socketPath: pod.socket,
      clientName: 'test/driver',
      onEvent: ledger.onEvent,
      requestTimeoutMs: 30_000,
    });
    const other = await PodClient.connect({ socketPath: pod.socket, clientName: 'test/other' });
    cleanups.push(
      () => client.close(),
      () => other.close(),
    );
    return { pod, ledger, client, other };
  };
  return {
    dir,
    env,
    cli: { cwd: dir, env },
    start,
    ok: (text: string, s: StreamScript = {}) => ({
      kind: 'sse' as const,
      events: PROVIDERS[provider].stream({ text: [text], ...s }),
    }),
  };
}

const terminal = (e: Event) => e.event === 'run_end' || (e.event === 'error' && e.request_id === undefined);
const outcome = (e: Event) =>
  e.event === 'run_end' ? e.data.result : e.event === 'error' ? `${e.data.code}: ${e.data.message}` : e.event;

interface Fault {
  name: string;
  replies: (ok: FakeReply) => FakeReply[];
  /** `finished`, or the provider error line. */
  expect: 'finished' | RegExp;
  requests: number;
}

const json = (status: number, headers: Record<string, string> = { 'retry-after-ms': '0' }): FakeReply => ({
  kind: 'json',
  status,
  headers,
  body: { error: { message: `status ${status}` } },
});
const FAULTS = (stream: (s: StreamScript) => string[]): Fault[] => [
  { name: 'ok', replies: (ok) => [ok], expect: 'finished', requests: 1 },
  { name: '429 then ok', replies: (ok) => [json(429), ok], expect: 'finished', requests: 2 },
  { name: '500, 503 then ok', replies: (ok) => [json(500), json(503), ok], expect: 'finished', requests: 3 },
  {
    name: 'a 500 storm',
    replies: () => [json(500), json(500), json(500)],
    expect: /: server error \(HTTP 500 from \S+\) after 3 attempts: /,
    requests: 3,
  },
  {
    name: 'a 429 storm',
    replies: () => [json(429), json(429), json(429)],
    expect: /: rate limited \(HTTP 429 from \S+\) after 3 attempts: /,
    requests: 3,
  },
  // No header to honour: the SDK's exponential backoff (2 s) before the retry.
  {
    name: 'a reset before the response, then ok',
    replies: (ok) => [{ kind: 'reset' }, ok],
    expect: 'finished',
    requests: 2,
  },
  {
    name: 'a reset mid-stream',
    replies: () => [{ kind: 'sse', events: stream({ text: ['a', 'b', 'c'] }), resetAfter: 2 }],
    expect: /: the response stream broke off/,
    requests: 1,
  },
  {
    name: 'a stall mid-stream',
    replies: () => [{ kind: 'sse', events: stream({ text: ['a', 'b'] }).slice(0, 2), hang: true }],
    expect: /: no response for 800 ms \(model\.timeoutMs\); the request was abandoned$/,
    requests: 1,
  },
  {
    name: 'a stall before the response',
    replies: () => [{ kind: 'sse', events: [], hang: true }],
    expect: /: no response for 800 ms \(model\.timeoutMs\); the request was abandoned$/,
    requests: 1,
  },
];

describe.each(Object.keys(PROVIDERS) as ProviderName[])('%s provider under faults', (provider) => {
  it('a seeded storm of 429s, 500s, resets and stalls: one terminal event per run, nothing lost from the log, also after SIGKILL', async () => {
    const seed = faultSeed(11);
    const rand = seededRandom(seed);
    const runs = faultCount(12);
    const p = await podOn(provider, { maxRetries: 2, timeoutMs: 800 });
    const { pod, ledger, client, other } = await p.start();
    const faults = FAULTS(PROVIDERS[provider].stream);
    const plan = Array.from({ length: runs }, (_, i) => (i < faults.length ? faults[i] : rand.pick(faults)));
    for (const [i, fault] of plan.entries()) {
      const before = fake!.requests.length;
      fake!.reply(...fault.replies(p.ok(`reply ${i}`)));
      const ended = client.waitFor(terminal, 30_000);
      await client.request({
        method: 'run',
        params: { input: [{ kind: 'text', content: `run ${i}: ${fault.name}` }] },
      });
      // Another client is served whatever the provider does.
      expect(await other.request({ method: 'get_history' })).toMatchObject({ event: 'history' });
      const end = await ended;
      const what = `run ${i} (${fault.name}, seed ${seed})`;
      if (fault.expect === 'finished') expect([what, outcome(end)]).toEqual([what, 'finished']);
      else expect([what, outcome(end)]).toEqual([what, expect.stringMatching(fault.expect)]);
      expect([what, fake!.requests.length - before]).toEqual([what, fault.requests]);
    }
    await ledger.when((l) => l.atRest);
    expect(ledger.violations).toEqual([]);
    expect(ledger.runs).toBe(runs);
    expect(ledger.terminals).toHaveLength(runs);

    // Every run is in the log: its input, its one outcome, and the log replays to the history.
    const live = await liveHistory(p.cli);
    const inputs = live
      .filter((item: any) => item.type === 'message' && item.role === 'user')
      .map((item: any) => item.content[0].text);
    expect(inputs).toEqual(plan.map((f, i) => `run ${i}: ${f.name}`));
    const replies = live
      .filter((item: any) => item.type === 'message' && item.role === 'assistant')
      .map((item: any) => item.content[0].text);
    expect(replies).toEqual(plan.flatMap((f, i) => (f.expect === 'finished' ? [`reply ${i}`] : [])));
    const sessionDir = path.join(p.dir, '.yoi', 'sessions');
    expect(logEntries(sessionDir, 'run_end').map((e) => e.result)).toEqual(
      plan.map((f) => (f.expect === 'finished' ? 'finished' : 'error')),
    );
    const id = client.welcome!.session_id;
    const logged = await loggedSession(p.cli, id);
    expect(logged.chain).toBe('intact');
    expect(logged.history).toEqual(live);

    // SIGKILL: every acknowledged entry was written; --resume restores the same history.
    pod.child.kill('SIGKILL');
    await pod.exited;
    const again = await p.start(['--resume']);
    expect(again.client.welcome!.session_id).toBe(id);
    expect(await liveHistory(p.cli)).toEqual(live);
    again.pod.child.kill('SIGTERM');
    expect(await again.pod.exited).toBe(0);
  }, 180_000);

  it('a retry waits as long as the server says (retry-after / retry-after-ms), even past model.timeoutMs, serving other clients meanwhile', async () => {
    // The wait before a retry is not the server's silence: timeoutMs does not cut it short.
    const p = await podOn(provider, { maxRetries: 2, timeoutMs: 1000 });
    const { ledger, client, other } = await p.start();
    // Longer than the SDK's first exponential backoff (2 s): only honouring the header explains the wait.
    const header: Record<string, string> =
      provider === 'anthropic' ? { 'retry-after-ms': '2600' } : { 'retry-after': '3' };
    const waitMs = provider === 'anthropic' ? 2600 : 3000;
    fake!.reply(json(429, header), p.ok('after the wait'));
    const ended = client.waitFor(terminal, 30_000);
    await client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'hi' }] } });
    while (fake!.requests.length < 1) await new Promise((r) => setTimeout(r, 10));
    await other.request({ method: 'get_history' });
    const served = performance.now();
    expect(outcome(await ended)).toBe('finished');
    const [first, second] = fake!.requests;
    expect(fake!.requests).toHaveLength(2);
    expect(second.at - first.at).toBeGreaterThanOrEqual(waitMs - 20); // timers never fire early; 20 ms for clock granularity
    expect(served).toBeLessThan(second.at); // answered while the pod waited to retry
    expect(ledger.terminals).toHaveLength(1);
  }, 60_000);

  it('a stalled stream does not hold the pod: other clients are served, a cancel ends it with one terminal event', async () => {
    const p = await podOn(provider, { maxRetries: 0, timeoutMs: 600_000 });
    const { ledger, client, other } = await p.start();
    fake!.reply(
      { kind: 'sse', events: PROVIDERS[provider].stream({ text: ['start '] }).slice(0, 3), hang: true },
      p.ok('next'),
    );
    const ended = client.waitFor(terminal, 30_000);
    const firstDelta = client.waitFor((e) => e.event === 'text_delta', 30_000);
    await client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'stall' }] } });
    await firstDelta;
    // Stalled for as long as the test likes: the pod answers, a notify queues, a cancel ends it.
    expect(await other.request({ method: 'get_history' })).toMatchObject({ event: 'history' });
    expect(await other.request({ method: 'notify', params: { message: 'while stalled' } })).toMatchObject({
      event: 'ack',
    });
    await other.request({ method: 'cancel' });
    expect(outcome(await ended)).toBe('cancelled');
    await fake!.whenAbandoned(1); // the HTTP stream was closed, not left hanging
    // The queued notification runs next, on the fake's second reply.
    await ledger.when((l) => l.terminals.length === 2 && l.atRest);
    expect(ledger.terminals.map(outcome)).toEqual(['cancelled', 'finished']);
    expect(ledger.violations).toEqual([]);
    const live = await liveHistory(p.cli);
    expect(
      live.some(
        (item: any) =>
          item.type === 'message' && item.role === 'system' && item.content[0].text.includes('while stalled'),
      ),
    ).toBe(true);
    expect((await loggedSession(p.cli, client.welcome!.session_id)).history).toEqual(live);
  }, 60_000);
});
