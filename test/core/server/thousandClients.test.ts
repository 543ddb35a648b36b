import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { RawClient } from '../../support/rawClient.js';
import { startPodProcess } from '../../support/runCli.js';
import { makeProject } from '../../support/startTestPod.js';

// 1,000 clients on one pod process (the built `yoi`, npm run build): every one is served the same
// stream, memory grows by far less than a queue per client, and the pod keeps serving after they
// leave. (A client that stops reading is covered by the slow-client tests.)

const CLIENTS = 1000;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function rssKiB(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0);
}

const hello = '{"method":"hello","params":{"protocol_version":2,"client":"test/1"}}\n';

describe('a thousand clients', () => {
  it('are all served the same run, in bounded memory, and the pod keeps serving after they leave', async () => {
    const dir = makeProject({ 'script.json': JSON.stringify([{ text: 'x'.repeat(20_000) }, { text: 'again' }]) });
    fs.writeFileSync(
      path.join(dir, 'yoi.config.json'),
      JSON.stringify({
        model: { provider: 'scripted', script: 'script.json' },
      }),
    );
    const pod = await startPodProcess(['--name', 'crowd'], {
      cwd: dir,
      env: { YOI_RUNTIME_DIR: path.join(dir, 'run') },
    });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    const idle = rssKiB(pod.child.pid!);

    const clients: RawClient[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const c = await RawClient.connect(pod.socket);
      cleanups.push(() => c.destroy());
      c.write(hello);
      clients.push(c);
    }
    await Promise.all(clients.map((c) => c.until((e) => e.event === 'welcome', 120_000)));

    clients[0].write('{"method":"run","params":{"input":[{"kind":"text","content":"go"}]},"request_id":"r1"}\n');
    const ends = await Promise.all(clients.map((c) => c.until((e) => e.event === 'run_end', 180_000)));
    const seqs = new Set(ends.map((e) => e.seq));
    expect(seqs.size).toBe(1); // one stream, the same sequence number everywhere
    for (const c of clients) {
      const text = c.events
        .filter((e) => e.event === 'text_delta')
        .map((e) => (e.event === 'text_delta' ? e.data.text : ''))
        .join('');
      expect(text.length).toBe(20_000);
      expect(c.events.some((e) => e.event === 'lagged')).toBe(false);
    }
    const busy = rssKiB(pod.child.pid!);

    // Everyone leaves; a newcomer is served, and the pod's memory did not grow with what it sent.
    for (const c of clients) c.destroy();
    const late = await RawClient.connect(pod.socket);
    cleanups.push(() => late.destroy());
    late.write(`${hello}{"method":"get_history","request_id":"h"}\n`);
    const history = await late.until((e) => e.event === 'history', 60_000);
    expect(JSON.stringify(history)).toContain('x'.repeat(1000));
    // A thousand connections cost well under 1 MiB each (their queues are bounded, the reply is encoded once).
    expect(busy - idle).toBeLessThan(CLIENTS * 1024);
  }, 400_000);
});
