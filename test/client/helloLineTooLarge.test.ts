import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';

/**
 * Found by a tester: a socket that answered `hello` with an 80 MB line and no newline was
 * buffered whole (~300 MB RSS) and then taken for a v1 pod: a too-large line only failed
 * pending requests, and `hello` is not one. It ends the connection attempt instead.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A server that writes `bytes` of `x` (no newline) to every connection. */
async function flooding(bytes: number): Promise<string> {
  const socket = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-flood-')), 'sock');
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  const server = net.createServer((s) => {
    s.on('error', () => undefined); // the client hangs up mid-flood
    let left = Math.ceil(bytes / chunk.length);
    const pump = () => {
      while (left > 0 && !s.destroyed) {
        left--;
        if (!s.write(chunk)) return void s.once('drain', pump);
      }
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(socket, r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return socket;
}

const connect = (socketPath: string, extra: Partial<Parameters<typeof PodClient.connect>[0]> = {}) =>
  PodClient.connect({ socketPath, clientName: 'test/1', welcomeTimeoutMs: 10_000, ...extra }).then(
    (c) => {
      cleanups.push(() => c.close());
      return 'connected';
    },
    (e: unknown) => e,
  );

describe('a line too long to be a greeting, before hello is answered', () => {
  it('an 80 MB line ends the connection attempt with one line, before the welcome bound', async () => {
    const started = Date.now();
    expect(await connect(await flooding(80 * 1024 * 1024))).toMatchObject({
      code: 'YOI_ERR_REPLY_TOO_LARGE',
      message:
        'the pod sent a line over 16 MiB before answering `hello`, more than a greeting: it is not a yoi pod, or a broken one',
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("a line over the client's own limit (maxReplyBytes) does too", async () => {
    expect(await connect(await flooding(2 * 1024 * 1024), { maxReplyBytes: 1024 * 1024 })).toMatchObject({
      code: 'YOI_ERR_REPLY_TOO_LARGE',
      message: 'a reply from the pod was over 1 MiB, more than a client holds',
    });
  });
});
