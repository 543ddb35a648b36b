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

// Replays the attack: thousands of get_history from a client that never reads used to queue
// one encoded history each (876 MB for 5,000, 3.2 GB with a 9 MB history). Runs the built `yoi`.

const MiB = 1024 * 1024;
const QUEUE = 1 * MiB;
const REQUESTS = 5000;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('replies count against the client queue bound', () => {
  it(`${REQUESTS} get_history from a client that never reads: RSS stays bounded, the client gets errors once it reads`, async () => {
    const dir = makeProject({ 'script.json': JSON.stringify([{ text: 'ok' }]) });
    fs.writeFileSync(
      path.join(dir, 'yoi.config.json'),
      JSON.stringify({
        model: { provider: 'scripted', script: 'script.json' },
        limits: { clientQueueBytes: QUEUE },
      }),
    );
    const pod = await startPodProcess(['--name', 'replies'], {
      cwd: dir,
      env: { YOI_RUNTIME_DIR: path.join(dir, 'run') },
    });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    const pid = pod.child.pid!;

    // A 4 MB history: each reply is four times the queue bound.
    const bystander = await RawClient.connect(pod.socket);
    cleanups.push(() => bystander.destroy());
    const history = 'word '.repeat((4 * MiB) / 5);
    bystander.write(`${JSON.stringify({ method: 'notify', params: { message: history } })}\n`);
    await bystander.until((e) => e.event === 'run_end', 60_000);

    const rss = sampleRss(pid);
    const base = rss.max;
    const attacker = net.connect(pod.socket);
    await new Promise((r) => attacker.once('connect', r));
    cleanups.push(() => attacker.destroy());
    attacker.pause(); // never reads, for now
    attacker.write('{"method":"hello","params":{"protocol_version":2,"client":"test/1"}}\n');
    for (let i = 0; i < REQUESTS; i++) attacker.write(`{"method":"get_history","request_id":"g${i}"}\n`);

    // The pod keeps serving others meanwhile.
    const histories = () => bystander.events.filter((e) => e.event === 'history').length;
    for (let round = 1; round <= 3; round++) {
      bystander.write('{"method":"get_history"}\n');
      await waitUntil(() => histories() >= round, `the bystander's history ${round}`);
    }

    // Now the attacker reads: every request is answered exactly once, a history or an error.
    const answers = new Map<string, Event>();
    let extra = 0;
    const done = new Promise<void>((resolve, reject) => {
      attacker.once('close', () => reject(new Error(`the pod closed the connection after ${answers.size} answers`)));
      const reader = new LineReader({
        maxLineBytes: 64 * MiB,
        onLine: (line) => {
          const d = decodeEventLine(line);
          if (!d.ok || d.value.request_id === undefined || d.value.event === 'welcome') return;
          if (answers.has(d.value.request_id)) extra++;
          answers.set(d.value.request_id, d.value);
          if (answers.size === REQUESTS) resolve();
        },
        onError: () => undefined,
      });
      attacker.on('data', (c: Buffer) => reader.push(c));
    });
    attacker.resume();
    await done;
    const max = rss.stop();
    attacker.destroy();

    const values = [...answers.values()];
    const errors = values.filter((e) => e.event === 'error');
    expect(extra).toBe(0);
    expect(values.filter((e) => e.event === 'history').length + errors.length).toBe(REQUESTS);
    expect(errors.length).toBeGreaterThan(REQUESTS / 2);
    for (const e of errors) {
      expect(e.event === 'error' && e.data.message).toMatch(
        /^request not served: this client has not read [\d.]+ [KM]iB the pod sent it \(limits\.clientQueueBytes is 1 MiB\); read it, then ask again$/,
      );
    }
    // At most the bound plus one reply held for the client at a time (each reply is encoded
    // once, as a string then a buffer), with room for the heap's own slack (64 MiB: under a
    // doubled load, GC ran late enough to pass 48 by 0.1 MB). Unbounded, the pod held thousands
    // of 4 MB replies; holding 20 of them fails this.
    expect(max - base).toBeLessThan(4 * (QUEUE + history.length) + 64 * MiB);

    // The pod runs on.
    bystander.write('{"method":"get_history"}\n');
    await waitUntil(() => histories() >= 4, "the bystander's last history");
    bystander.destroy();
  }, 180_000);
});
