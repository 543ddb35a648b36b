import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { LineReader } from '../../core/protocol/index.js';
import { rssOf, sampleRss } from '../support/procStatus.js';
import { startPodProcess } from '../support/runCli.js';
import { faultCount } from '../support/seededRandom.js';
import { makeProject } from '../support/startTestPod.js';

/**
 * 1,000 clients on one pod process: each connects, says hello and sends a few requests; a tenth
 * never read a byte. While runs broadcast to all of them the pod stays within a memory bound
 * (RSS from /proc), answers a probe between runs, and every client that reads gets its replies
 * and every run's end. `YOI_FAULT_SCALE` multiplies the clients for bench runs.
 */
const CLIENTS = faultCount(1000);
const SILENT = Math.floor(CLIENTS / 10);
const RUNS = 3;
/**
 * Growth allowed over the pod's RSS at rest (about 4× the 35 MB measured): broadcasts are shared
 * buffers, so a client costs its socket and bookkeeping, not a copy of what it is sent.
 */
const GROWTH_BOUND = 160 * 1024 * 1024;

function openFiles(): number {
  const m = /Max open files\s+(\d+|unlimited)/.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
  return !m ? 0 : m[1] === 'unlimited' ? Infinity : Number(m[1]);
}
const needed = CLIENTS + 200;
const enough = openFiles() >= needed;
if (!enough)
  console.warn(
    `skipped: ${CLIENTS} clients need ${needed} open files (ulimit -n is ${openFiles()}); raise it with ulimit -n`,
  );

/** A lean client: counts its replies and run ends without keeping what it read. */
function connect(socketPath: string, id: number, silent: boolean) {
  const seen = { welcome: 0, replies: 0, runEnds: 0, closed: false };
  const waiters: (() => void)[] = [];
  const reader = new LineReader({
    onLine: (line) => {
      if (line.includes('"event":"welcome"')) seen.welcome++;
      else if (line.includes(`"request_id":"c${id}-`) && line.includes('"event":"history"')) seen.replies++;
      else if (line.includes('"event":"run_end"')) seen.runEnds++;
      for (const w of waiters.splice(0)) w();
    },
    onError: () => undefined,
  });
  let socket!: net.Socket;
  // A full listen backlog answers EAGAIN: a client tries again, as any would (bounded).
  const ready = new Promise<void>((resolve, reject) => {
    const attempt = (left: number) => {
      socket = net.connect(socketPath);
      socket.once('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EAGAIN' && left > 0) setTimeout(() => attempt(left - 1), 20);
        else reject(e);
      });
      socket.once('connect', () => {
        socket.on('error', () => undefined);
        socket.on('close', () => (seen.closed = true));
        if (silent)
          socket.pause(); // never reads: what it is sent piles up in the pod's queue for it
        else socket.on('data', (c: Buffer) => reader.push(c));
        socket.write(
          `${JSON.stringify({ method: 'hello', params: { protocol_version: 2, client: `test/c${id}` } })}\n`,
        );
        for (let r = 0; r < 2; r++)
          socket.write(`${JSON.stringify({ method: 'get_history', request_id: `c${id}-${r}` })}\n`);
        resolve();
      });
    };
    attempt(500);
  });
  const until = (pred: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (pred() || seen.closed ? resolve() : waiters.push(check));
      check();
    });
  return {
    get socket() {
      return socket;
    },
    seen,
    ready,
    until,
  };
}

(enough ? describe : describe.skip)(`${CLIENTS} clients on one pod`, () => {
  it('bounded memory, every reading client served, the pod answers throughout', async () => {
    const dir = makeProject({ 'yoi.config.json': JSON.stringify({ model: { provider: 'echo' } }) });
    const pod = await startPodProcess([], { cwd: dir, env: { YOI_RUNTIME_DIR: path.join(dir, 'run') } });
    const clients: ReturnType<typeof connect>[] = [];
    let driver: PodClient | undefined;
    try {
      driver = await PodClient.connect({
        socketPath: pod.socket,
        clientName: 'test/driver',
        requestTimeoutMs: 120_000,
      });
      await driver.request({ method: 'get_history' });
      const atRest = rssOf(pod.child.pid!);
      const rss = sampleRss(pod.child.pid!, 50, atRest + 2 * GROWTH_BOUND);
      const probe = async () =>
        expect(await driver!.request({ method: 'get_history' })).toMatchObject({ event: 'history' });

      // Readers first, a batch at a time (each batch greeted before the next connects), then the silent ones.
      for (let i = SILENT; i < CLIENTS; i += 50) {
        const batch = Array.from({ length: Math.min(50, CLIENTS - i) }, (_, k) => connect(pod.socket, i + k, false));
        clients.push(...batch);
        await Promise.all(batch.map((c) => c.ready));
        await Promise.all(batch.map((c) => c.until(() => c.seen.welcome === 1 && c.seen.replies === 2)));
      }
      const readers = [...clients];
      const silent = Array.from({ length: SILENT }, (_, i) => connect(pod.socket, i, true));
      clients.push(...silent);
      await Promise.all(silent.map((c) => c.ready));
      await probe();

      const paste = 'a pasted line for every client\n'.repeat(2000);
      for (let r = 0; r < RUNS; r++) {
        const ended = driver.waitFor((e) => e.event === 'run_end', 120_000);
        await driver.request({
          method: 'run',
          params: {
            input: [
              { kind: 'text', content: `run ${r}` },
              { kind: 'paste', id: r + 1, chars: paste.length, lines: 2001, content: paste },
            ],
          },
        });
        await probe(); // answered while the run broadcasts to everyone
        expect(await ended).toMatchObject({ data: { result: 'finished' } });
      }
      await Promise.all(readers.map((c) => c.until(() => c.seen.runEnds === RUNS)));
      const peak = rss.stop();

      expect(readers.filter((c) => c.seen.closed)).toHaveLength(0); // none was disconnected
      expect(
        readers.filter((c) => c.seen.welcome !== 1 || c.seen.replies !== 2 || c.seen.runEnds !== RUNS),
      ).toHaveLength(0);
      expect(peak - atRest).toBeLessThan(GROWTH_BOUND);
      console.log(
        `${CLIENTS} clients (${SILENT} never reading): pod RSS ${(atRest / 1e6).toFixed(0)} MB at rest, peak ${(peak / 1e6).toFixed(0)} MB`,
      );

      for (const c of clients) c.socket.destroy();
      await probe(); // still serving once they are all gone
    } finally {
      for (const c of clients) c.socket.destroy();
      await driver?.close();
      pod.child.kill('SIGTERM');
    }
    expect(await pod.exited).toBe(0);
  }, 300_000);
});
