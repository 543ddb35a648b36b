import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { isYoiError } from '../../core/errors/YoiError.js';
import { yoiAsync } from '../support/runCli.js';

/**
 * A pod that answers with what no pod should send, as a broken or hostile process on the socket
 * would. Found against a fake pod: a `history` whose data was a string made `yoi history` print
 * its characters one per line (exit 0), `items: 5` said "reply.data.items is not iterable", and
 * `yoi send` took a malformed reply as the `ack` of its run; a line without end after the `ack`
 * kept `yoi send` reading (and discarding) at full CPU for good, printing nothing.
 */

type Answer = (request: { method: string; request_id?: string }, socket: net.Socket) => void;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const WELCOME = {
  protocol_version: 2,
  pod_name: 'fake',
  session_id: '01a24db0-6ed7-75ca-aa33-507a5d8392d8',
  status: 'idle',
  segment_kinds: ['text'],
  pod_event_kinds: [],
};

/** A socket server that welcomes `hello` and hands every other request to `answer`. */
async function fakePod(answer: Answer): Promise<{ socket: string; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-hostile-'));
  const socket = path.join(dir, 'sock');
  const open = new Set<net.Socket>();
  const server = net.createServer((s) => {
    open.add(s);
    s.on('error', () => undefined);
    let buffer = '';
    s.on('data', (d) => {
      buffer += d;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const request = JSON.parse(buffer.slice(0, nl)) as { method: string; request_id?: string };
        buffer = buffer.slice(nl + 1);
        if (request.method === 'hello')
          s.write(`${JSON.stringify({ event: 'welcome', request_id: request.request_id, data: WELCOME })}\n`);
        else answer(request, s);
      }
    });
  });
  await new Promise<void>((r) => server.listen(socket, r));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => new Promise((r) => server.close(r)));
  cleanups.push(() => open.forEach((s) => s.destroy()));
  return { socket, dir };
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** Writes `a` until the socket is gone: a line that never ends. */
function endless(s: net.Socket) {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const go = () => {
    while (!s.destroyed) if (!s.write(chunk)) return void s.once('drain', go);
  };
  go();
}

const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

describe('a pod that answers with what no pod sends', () => {
  it('a core reply whose data does not match the protocol fails the request, and the client goes on', async () => {
    const pod = await fakePod((r, s) =>
      s.write(
        r.method === 'get_history'
          ? line({ event: 'history', request_id: r.request_id, data: 'nope' })
          : line({ event: 'ack', request_id: r.request_id, data: { method: r.method } }),
      ),
    );
    const c = await PodClient.connect({ socketPath: pod.socket, clientName: 'test' });
    cleanups.push(() => c.close());
    const failed = await failureOf(c.request({ method: 'get_history' }));
    expect(isYoiError(failed) && failed.code).toBe('YOI_ERR_PROTOCOL');
    expect(failed!.message).toMatch(/^the pod sent a malformed `history` event: /);
    expect((await c.request({ method: 'cancel' })).event).toBe('ack');
  });

  it('an unknown event answering a core method fails it; a plugin method still takes one', async () => {
    const pod = await fakePod((r, s) => s.write(line({ event: 'mystery', request_id: r.request_id, data: {} })));
    const c = await PodClient.connect({ socketPath: pod.socket, clientName: 'test' });
    cleanups.push(() => c.close());
    const failed = await failureOf(c.request({ method: 'get_history' }));
    expect(isYoiError(failed) && failed.code).toBe('YOI_ERR_PROTOCOL');
    expect(failed!.message).toBe('the pod answered `get_history` with `mystery`, an event this client does not know');
    expect(await c.requestExtension('plugin_method')).toMatchObject({ event: 'mystery', data: {} });
  });

  it('a line over the limit that answers no request ends the connection, saying why', async () => {
    const pod = await fakePod((r, s) => {
      s.write(line({ event: 'ack', request_id: r.request_id, data: { method: r.method } }));
      endless(s);
    });
    const c = await PodClient.connect({ socketPath: pod.socket, clientName: 'test', maxReplyBytes: 1024 * 1024 });
    cleanups.push(() => c.close());
    await c.request({ method: 'cancel' });
    await c.closed;
    expect(c.connected).toBe(false);
    expect(c.closedBecause?.code).toBe('YOI_ERR_REPLY_TOO_LARGE');
  });
});

describe('the CLI against such a pod', () => {
  it('`yoi send`: a line without end after the ack ends it with one line', async () => {
    const pod = await fakePod((r, s) => {
      s.write(line({ event: 'ack', request_id: r.request_id, data: { method: r.method } }));
      endless(s);
    });
    const r = await yoiAsync(['send', '--socket', pod.socket, 'hi'], { cwd: pod.dir, timeoutMs: 60_000 });
    expect([r.status, r.stdout, r.stderr]).toEqual([
      1,
      '',
      'yoi: a reply from the pod was over 256 MiB, more than a client holds [YOI_ERR_REPLY_TOO_LARGE]\n',
    ]);
  }, 90_000);

  it('`yoi history`: a malformed history fails with one line and prints nothing', async () => {
    const pod = await fakePod((r, s) =>
      s.write(line({ event: 'history', request_id: r.request_id, data: { items: 5 } })),
    );
    const r = await yoiAsync(['history', '--socket', pod.socket], { cwd: pod.dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^yoi: the pod sent a malformed `history` event: .*\[YOI_ERR_PROTOCOL\]\n$/);
  }, 30_000);
});
