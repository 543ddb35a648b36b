import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import WebSocket from 'ws';
import { PodClient } from '../../../client/PodClient.js';
import { sampleRss } from '../../support/procStatus.js';
import { startPodProcess } from '../../support/runCli.js';
import { makeProject, runEnded, text } from '../../support/startTestPod.js';
import { waitUntil } from '../../support/waitUntil.js';

// 1,000 WebSocket clients on one pod process (the built `yoi`): all served, the pod's descriptors
// and memory grow by a bounded amount per client, a socket client is unaffected, and everything
// is given back when they leave.

const CLIENTS = 1000;
const MiB = 1024 * 1024;
const kills: (() => void)[] = [];
afterAll(() => {
  for (const k of kills) k();
});

const fdsOf = (pid: number) => fs.readdirSync(`/proc/${pid}/fd`).length;

describe('yoi:ws with 1,000 connections', () => {
  it(`${CLIENTS} ws clients: served, bounded fds and memory, a socket client unaffected`, async () => {
    const dir = makeProject();
    const runtime = path.join(dir, 'run');
    const pod = await startPodProcess(['--name', 'many', '--listen', 'ws://127.0.0.1:0'], {
      cwd: dir,
      env: { YOI_RUNTIME_DIR: runtime },
    });
    kills.push(() => pod.child.kill('SIGKILL'));
    const pid = pod.child.pid!;
    const podDir = path.join(runtime, 'many');
    const {
      listen: [url],
    } = JSON.parse(fs.readFileSync(path.join(podDir, 'endpoints.json'), 'utf8')) as { listen: string[] };
    const token = fs.readFileSync(path.join(podDir, 'token'), 'utf8').trim();
    const local = await PodClient.connect({ socketPath: pod.socket, clientName: 'test/1' });
    await local.request({ method: 'get_history' });
    const baseFds = fdsOf(pid);
    const rss = sampleRss(pid, 50);
    const baseRss = rss.max;

    const clients: { ws: WebSocket; ends: number; welcomed: boolean }[] = [];
    for (let batch = 0; batch < CLIENTS / 50; batch++) {
      await Promise.all(
        Array.from(
          { length: 50 },
          () =>
            new Promise<void>((resolve, reject) => {
              const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
              const c = { ws, ends: 0, welcomed: false };
              clients.push(c);
              ws.on('message', (d) => {
                const s = d.toString();
                if (s.startsWith('{"event":"welcome"')) c.welcomed = true;
                if (s.startsWith('{"event":"run_end"')) c.ends++;
              });
              ws.once('open', () => {
                ws.send('{"method":"hello","params":{"protocol_version":2,"client":"many/1"}}');
                resolve();
              });
              ws.once('error', reject);
            }),
        ),
      );
    }
    kills.push(() => clients.forEach((c) => c.ws.terminate()));
    await waitUntil(() => clients.every((c) => c.welcomed), 'every welcome', 120_000);
    const fds = fdsOf(pid);
    expect(fds - baseFds).toBeGreaterThanOrEqual(CLIENTS);
    expect(fds - baseFds).toBeLessThan(CLIENTS + 50); // one descriptor per client, no more

    // A turn over the socket reaches every ws client; the socket client sees it end as usual.
    const ended = runEnded(local, 120_000);
    await local.request({ method: 'run', params: { input: [text('to a thousand clients')] } });
    expect((await ended).event).toBe('run_end');
    await waitUntil(() => clients.every((c) => c.ends === 1), 'run_end on every ws client', 120_000);
    const grown = rss.stop() - baseRss;
    process.stdout.write(`1,000 ws clients: +${fds - baseFds} fds, +${(grown / MiB).toFixed(1)} MiB RSS in the pod\n`);
    expect(grown).toBeLessThan(200 * MiB);

    for (const c of clients) c.ws.close();
    await waitUntil(() => fdsOf(pid) <= baseFds + 5, 'the descriptors given back', 120_000);
    expect((await local.request({ method: 'get_history' })).event).toBe('history');
    await local.close();
  }, 400_000);
});
