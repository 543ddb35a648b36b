import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Event } from '../../../core/protocol/index.js';
import { unbrokenRun } from '../../support/hostileText.js';
import { RawClient } from '../../support/rawClient.js';
import { startPodProcess } from '../../support/runCli.js';
import { makeProject } from '../../support/startTestPod.js';

// Replays the attack: a huge unbroken text (one BPE "word") used to make token counting run
// for minutes on the event loop; another client's request and SIGTERM waited for it.
// Runs the built `yoi` (npm run build).

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** ~10 MB of UTF-8: 3.3 million random CJK characters with nothing to split on. */
const HOSTILE = unbrokenRun(3_300_000, 0x4e00, 2000, 42);

async function hostilePod() {
  const dir = makeProject({ 'script.json': JSON.stringify([{ text: 'ok' }, { text: 'ok' }]) });
  // Thresholds make the pod load the tokenizer and count the context before every request.
  fs.writeFileSync(
    path.join(dir, 'yoi.config.json'),
    JSON.stringify({
      model: { provider: 'scripted', script: 'script.json' },
      compaction: { threshold: 1e9, requestThreshold: 1e9 },
    }),
  );
  const pod = await startPodProcess(['--name', 'hostile'], {
    cwd: dir,
    env: { YOI_RUNTIME_DIR: path.join(dir, 'run') },
  });
  cleanups.push(() => pod.child.kill('SIGKILL'));
  const hello = (c: RawClient) => {
    c.write('{"method":"hello","params":{"protocol_version":2,"client":"test/1"}}\n');
    return c.until((e) => e.event === 'welcome');
  };
  // Replies carry the whole history: the input twice (the run's segments and its message).
  const worker = await RawClient.connect(pod.socket, { maxLineBytes: 64 * 1024 * 1024 });
  const other = await RawClient.connect(pod.socket, { maxLineBytes: 64 * 1024 * 1024 });
  cleanups.push(
    () => worker.destroy(),
    () => other.destroy(),
  );
  await Promise.all([hello(worker), hello(other)]);
  return { ...pod, worker, other };
}

const index = (events: Event[], pred: (e: Event) => boolean) => events.findIndex(pred);

/** On one connection (in the order the pod wrote), the `history` reply came before `run_end`. */
function answeredWhileRunning(events: Event[]): boolean {
  const end = index(events, (e) => e.event === 'run_end');
  return end === -1 || index(events, (e) => e.event === 'history') < end;
}

describe('a huge unbroken input does not freeze the pod', () => {
  it('notify: another client is answered while the context is counted, and SIGTERM stops the pod', async () => {
    const pod = await hostilePod();
    pod.worker.write(`${JSON.stringify({ method: 'notify', params: { message: HOSTILE } })}\n`);
    await pod.worker.until((e) => e.event === 'status' && e.data.status === 'running', 60_000);
    pod.other.write('{"method":"get_history","request_id":"h1"}\n');
    const history = await pod.other.until((e) => e.event === 'history', 60_000);
    expect(JSON.stringify(history).length).toBeGreaterThan(HOSTILE.length);
    // The pod answered while it was still counting the context.
    // Clients were shown the notification's head, not 10 MB each.
    const shown = pod.other.events.find((e) => e.event === 'notification');
    expect(shown?.event === 'notification' && shown.data.message.length).toBeLessThan(20_000);
    expect(answeredWhileRunning(pod.other.events)).toBe(true);

    pod.child.kill('SIGTERM');
    expect(await pod.exited).toBe(0);
    const events = pod.worker.events;
    const end = index(events, (e) => e.event === 'run_end');
    expect(end).toBeGreaterThan(-1);
    expect(index(events, (e) => e.event === 'shutdown')).toBeGreaterThan(end);
  }, 120_000);

  it('run: the other client is answered while the input is counted, and `shutdown` stops the pod', async () => {
    const pod = await hostilePod();
    pod.worker.write(
      `${JSON.stringify({ method: 'run', params: { input: [{ kind: 'text', content: HOSTILE }] }, request_id: 'r1' })}\n`,
    );
    await pod.worker.until((e) => e.event === 'ack', 60_000);
    pod.other.write('{"method":"get_history","request_id":"h1"}\n');
    await pod.other.until((e) => e.event === 'history', 60_000);
    expect(answeredWhileRunning(pod.other.events)).toBe(true);

    pod.other.write('{"method":"shutdown","request_id":"s1"}\n');
    await pod.other.until((e) => e.event === 'ack' && e.request_id === 's1', 60_000);
    expect(await pod.exited).toBe(0);
    const events = pod.worker.events;
    const end = index(events, (e) => e.event === 'run_end');
    expect(end).toBeGreaterThan(-1);
    expect(index(events, (e) => e.event === 'shutdown')).toBeGreaterThan(end);
  }, 120_000);
});
