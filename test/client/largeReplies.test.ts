import { afterEach, describe, expect, it } from '@jest/globals';
import { PodClient } from '../../client/PodClient.js';
import { isYoiError } from '../../core/errors/YoiError.js';
import { runEnded, startTestPod, text, type TestPod } from '../support/startTestPod.js';

/**
 * Found by feeding a pod large pastes: once its history passed 16 MiB (two 5 MB pastes the echo
 * provider repeats), `yoi history` and `yoi pod status` said the pod "did not answer get_history
 * within 10000 ms" for good — the client dropped the reply line at its own 16 MiB limit, silently.
 */

const pods: TestPod[] = [];
const clients: PodClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const p of pods.splice(0)) await p.stop();
});

const paste = (chars: number) => ({ kind: 'paste' as const, id: 1, chars, lines: 1, content: 'p'.repeat(chars) });

async function podWithLongHistory(): Promise<TestPod> {
  const tp = await startTestPod();
  pods.push(tp);
  const c = await tp.connect();
  clients.push(c);
  for (let i = 0; i < 2; i++) {
    const ended = runEnded(c, 60_000);
    await c.request({ method: 'run', params: { input: [text(`part ${i}`), paste(5_000_000)] } }, 60_000);
    expect((await ended).event).toBe('run_end');
  }
  return tp;
}

describe('replies longer than a protocol line', () => {
  it('a history over 16 MiB reaches the client', async () => {
    const tp = await podWithLongHistory();
    const c = await tp.connect();
    clients.push(c);
    const reply = await c.request({ method: 'get_history' }, 60_000);
    expect(reply.event).toBe('history');
    const items = reply.event === 'history' ? reply.data.items : [];
    expect(JSON.stringify(items).length).toBeGreaterThan(16 * 1024 * 1024);
  });

  it('one over what the client holds fails the request at once, saying so; the client goes on', async () => {
    const tp = await podWithLongHistory();
    const c = await PodClient.connect({ socketPath: tp.socket, clientName: 'test/small', maxReplyBytes: 1024 * 1024 });
    clients.push(c);
    const started = Date.now();
    const failed = await c.request({ method: 'get_history' }, 60_000).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isYoiError(failed) && failed.code).toBe('YOI_ERR_REPLY_TOO_LARGE');
    expect((failed as Error).message).toBe('a reply from the pod was over 1 MiB, more than a client holds');
    expect(Date.now() - started).toBeLessThan(30_000);
    // The rest of the stream is read as before.
    const refused = await c.request({ method: 'cancel' }).then(
      () => 'answered',
      (e: unknown) => (e as Error).message,
    );
    expect(refused).toMatch(/^not_running: /);
  });
});
