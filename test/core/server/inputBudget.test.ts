import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { LineReader, decodeEventLine, type Event } from '../../../core/protocol/index.js';
import { sampleRss } from '../../support/procStatus.js';
import { RawClient } from '../../support/rawClient.js';
import { startPodProcess } from '../../support/runCli.js';
import { makeProject } from '../../support/startTestPod.js';
import { waitUntil } from '../../support/waitUntil.js';

// Replays the attack: many clients each holding a long unterminated line (40 × 15 MiB took a
// pod to 722 MB). Runs the built `yoi`.

const MiB = 1024 * 1024;
const BUDGET = 16 * MiB;
const CLIENTS = 24;
const PARTIAL = 7 * MiB; // each fits one line (8 MiB), two fit the budget

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A raw client that records the events it receives. */
async function lineClient(socket: string) {
  const s = net.connect(socket);
  await new Promise((r) => s.once('connect', r));
  const events: Event[] = [];
  const reader = new LineReader({
    maxLineBytes: 64 * MiB,
    onLine: (line) => {
      const d = decodeEventLine(line);
      if (d.ok) events.push(d.value);
    },
    onError: () => undefined,
  });
  s.on('data', (c: Buffer) => reader.push(c));
  s.on('error', () => undefined);
  cleanups.push(() => s.destroy());
  const write = (data: string | Buffer) => new Promise<void>((r) => s.write(data, () => r()));
  return { s, events, write };
}

describe('a pod-wide budget for buffered input', () => {
  it(`${CLIENTS} clients holding ${PARTIAL / MiB} MiB unterminated lines: those past the budget get an error, the others go on`, async () => {
    const dir = makeProject({ 'script.json': JSON.stringify([{ text: 'ok' }, { text: 'ok' }, { text: 'ok' }]) });
    fs.writeFileSync(
      path.join(dir, 'yoi.config.json'),
      JSON.stringify({
        model: { provider: 'scripted', script: 'script.json' },
        limits: { maxLineBytes: 8 * MiB, inputBufferBytes: BUDGET },
      }),
    );
    const pod = await startPodProcess(['--name', 'budget'], {
      cwd: dir,
      env: { YOI_RUNTIME_DIR: path.join(dir, 'run') },
    });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    const watcher = await RawClient.connect(pod.socket, { maxLineBytes: 64 * MiB });
    cleanups.push(() => watcher.destroy());
    const rss = sampleRss(pod.child.pid!);
    const base = rss.max;

    const clients = await Promise.all(Array.from({ length: CLIENTS }, () => lineClient(pod.socket)));
    const filler = Buffer.alloc(PARTIAL, 0x61);
    await Promise.all(
      clients.map(async (c) => {
        await c.write('{"method":"notify","params":{"message":"');
        await c.write(filler);
      }),
    );
    // Whatever the interleaving, exactly two lines fit: the other clients hear about it.
    const errorsOf = (c: (typeof clients)[number]) => c.events.filter((e) => e.event === 'error');
    await waitUntil(() => clients.filter((c) => errorsOf(c).length > 0).length >= CLIENTS - 2, 'the errors');
    const dropped = clients.filter((c) => errorsOf(c).length > 0);
    const kept = clients.filter((c) => errorsOf(c).length === 0);
    expect(dropped).toHaveLength(CLIENTS - 2);
    for (const c of dropped) {
      expect(errorsOf(c)).toHaveLength(1);
      expect(errorsOf(c)[0]).toMatchObject({ event: 'error', data: { code: 'internal' } });
      expect(errorsOf(c)[0].event === 'error' && errorsOf(c)[0].data.message).toBe(
        "line dropped: the pod's 16 MiB for unfinished lines of all clients (limits.inputBufferBytes) is in use; the rest of the line was discarded",
      );
    }
    // The budget, not the clients, bounds the pod's memory (unbounded: 24 × 7 MiB and copies).
    expect(rss.stop() - base).toBeLessThan(2 * BUDGET + 64 * MiB);

    // The two lines that fit complete and are handled, one run each; the dropped clients carry on.
    for (const [i, c] of kept.entries()) {
      await c.write('"}}\n');
      await waitUntil(() => watcher.events.filter((e) => e.event === 'run_end').length > i, `run ${i + 1}`);
    }
    for (const c of dropped) await c.write('"}}\n{"method":"hello","params":{"protocol_version":2}}\n');
    await waitUntil(() => dropped.every((c) => c.events.some((e) => e.event === 'welcome')), 'the welcomes');
    watcher.write('{"method":"get_history"}\n');
    const history = await watcher.until((e) => e.event === 'history', 60_000);
    const notes =
      history.event === 'history' ? history.data.items.filter((i) => JSON.stringify(i).includes('aaaaaaaa')) : [];
    expect(notes).toHaveLength(2);
    for (const c of clients) expect(errorsOf(c)).toHaveLength(dropped.includes(c) ? 1 : 0);
  }, 180_000);
});
