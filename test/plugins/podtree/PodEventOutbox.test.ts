import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PodEventOutbox } from '../../../plugins/podtree/PodEventOutbox.js';
import { makeProject, startTestPod, type TestPod, treeOf } from '../../support/startTestPod.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const WELCOME = {
  event: 'welcome',
  data: {
    protocol_version: 2,
    pod_name: 'fake',
    session_id: 's',
    status: 'idle',
    segment_kinds: [],
    pod_event_kinds: [],
  },
};
/** What the original (v1) pod broadcasts for a method it does not know. */
const V1_UNKNOWN_HELLO = {
  event: 'error',
  data: {
    code: 'internal',
    message:
      'invalid method: unknown variant `hello`, expected one of `run`, `notify`, `pod_event`, `resume`, `cancel`, `pause`, `shutdown`, `get_history`',
  },
};

/**
 * A line server that records every line and answers `pod_event`s through `answer`; `hello` is
 * answered with `welcome` (v2), or as the original v1 pod did (`v1`).
 */
async function fakeParent(
  socketPath: string,
  answer: (id: string, attempt: number, socket: net.Socket) => void,
  { v1 = false } = {},
) {
  const lines: string[] = [];
  const attempts = new Map<string, number>();
  const server = net.createServer((s) => {
    let carry = '';
    s.on('data', (d) => {
      const parts = (carry + d).split('\n');
      carry = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const m = JSON.parse(line) as { method: string; request_id?: string };
        if (m.method === 'hello') s.write(`${JSON.stringify(v1 ? V1_UNKNOWN_HELLO : WELCOME)}\n`);
        if (m.method !== 'pod_event' || !m.request_id) continue;
        const n = (attempts.get(m.request_id) ?? 0) + 1;
        attempts.set(m.request_id, n);
        answer(m.request_id, n, s);
      }
    });
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(socketPath, r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return { lines, attempts };
}

const ack = (s: net.Socket, id: string) =>
  s.write(`${JSON.stringify({ event: 'ack', request_id: id, data: { method: 'pod_event' } })}\n`);

describe('PodEventOutbox', () => {
  it('delivers reports in order, each acknowledged by a real parent', async () => {
    const tp: TestPod = await startTestPod({ name: 'parent' });
    cleanups.push(() => tp.stop());
    treeOf(tp.pod).registry.add({
      pod_name: 'kid',
      socket_path: '/run/kid/sock',
      scope_delegated: [],
      callback_address: tp.socket,
      secret: 'kid-secret',
    });
    const outbox = new PodEventOutbox({ socketPath: tp.socket, clientName: 'pod/kid', auth: 'kid-secret' });
    cleanups.push(() => outbox.close());
    for (let i = 0; i < 20; i++) outbox.send({ kind: 'errored', pod_name: 'kid', message: `problem ${i}` });
    expect(await outbox.drain(10_000)).toBe(true);
    const c = await tp.connect();
    const deadline = Date.now() + 10_000;
    let seen: number[] = [];
    while (seen.length < 20 && Date.now() < deadline) {
      const h = await c.request({ method: 'get_history' });
      const items = h.event === 'history' ? h.data.items : [];
      seen = items.flatMap((i) => {
        const m = /reported an error: problem (\d+)/.exec(JSON.stringify(i));
        return m && (i as { role?: string }).role === 'system' ? [Number(m[1])] : [];
      });
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i));
    await c.close();
  });

  it('gives a v1 parent (the original, which never acks) each report once, in order', async () => {
    const socketPath = path.join(makeProject(), 'p.sock');
    const parent = await fakeParent(socketPath, () => undefined, { v1: true });
    const outbox = new PodEventOutbox({ socketPath, clientName: 'pod/kid', ackTimeoutMs: 500 });
    cleanups.push(() => outbox.close());
    const ids = [
      outbox.send({ kind: 'turn_ended', pod_name: 'kid' }),
      outbox.send({ kind: 'shut_down', pod_name: 'kid' }),
    ];
    expect(await outbox.drain(10_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 1000)); // no retry follows
    expect(ids.map((id) => parent.attempts.get(id))).toEqual([1, 1]);
    expect(parent.lines.filter((l) => l.includes('"pod_event"')).map((l) => JSON.parse(l).params.kind)).toEqual([
      'turn_ended',
      'shut_down',
    ]);
  });

  it('re-sends a report with the same request_id until it is acknowledged', async () => {
    const socketPath = path.join(makeProject(), 'p.sock');
    const parent = await fakeParent(socketPath, (id, attempt, s) => {
      if (attempt === 1)
        s.destroy(); // the connection breaks before the ack
      else ack(s, id);
    });
    const outbox = new PodEventOutbox({ socketPath, clientName: 'pod/kid' });
    cleanups.push(() => outbox.close());
    const id = outbox.send({ kind: 'turn_ended', pod_name: 'kid' });
    expect(await outbox.drain(10_000)).toBe(true);
    expect(parent.attempts.get(id)).toBe(2);
    const sent = parent.lines.filter((l) => l.includes('"pod_event"'));
    expect(sent).toEqual([sent[0], sent[0]]);
    expect(JSON.parse(sent[0])).toEqual({
      method: 'pod_event',
      request_id: id,
      params: { kind: 'turn_ended', pod_name: 'kid' },
    });
    expect(parent.lines[0]).toBe('{"method":"hello","params":{"protocol_version":2,"client":"pod/kid"}}');
  });

  it('keeps trying while the parent is down, delivers when it is back, and drops a report after retryForMs', async () => {
    const dir = makeProject();
    const socketPath = path.join(dir, 'p.sock');
    const logged: string[] = [];
    const outbox = new PodEventOutbox({
      socketPath,
      clientName: 'pod/kid',
      retryForMs: 60_000,
      log: (l) => logged.push(l),
    });
    cleanups.push(() => outbox.close());
    const id = outbox.send({ kind: 'shut_down', pod_name: 'kid' });
    expect(await outbox.drain(300)).toBe(false); // nobody listens yet: send() did not throw, the report waits
    const parent = await fakeParent(socketPath, (rid, _n, s) => ack(s, rid));
    expect(await outbox.drain(10_000)).toBe(true);
    expect(parent.attempts.get(id)).toBe(1);

    const gone = new PodEventOutbox({
      socketPath: path.join(dir, 'nobody.sock'),
      clientName: 'pod/kid',
      retryForMs: 200,
      log: (l) => logged.push(l),
    });
    cleanups.push(() => gone.close());
    gone.send({ kind: 'turn_ended', pod_name: 'kid' });
    gone.send({ kind: 'shut_down', pod_name: 'kid' });
    expect(await gone.drain(5000)).toBe(true); // both given up on
    expect(gone.pending).toBe(0);
    expect(logged).toEqual([
      expect.stringMatching(new RegExp(`^dropped the turn_ended report to ${dir}/nobody.sock: .*ENOENT`)),
      expect.stringMatching(/^dropped the shut_down report to .*nobody\.sock/),
    ]);
  });

  it('follows its target: when the parent it was talking to goes away, the next report goes where `target` says', async () => {
    const dir = makeProject();
    const sockets: net.Socket[] = [];
    const first = await fakeParent(path.join(dir, 'a.sock'), (id, _n, s) => {
      sockets.push(s);
      ack(s, id);
    });
    const second = await fakeParent(path.join(dir, 'b.sock'), (id, _n, s) => ack(s, id));
    let parent = 'a';
    let resolved = ''; // what the last target lookup found (as the reporter's parentName)
    const target = async () => {
      resolved = parent;
      return path.join(dir, `${parent}.sock`);
    };
    const outbox = new PodEventOutbox({ socketPath: path.join(dir, 'a.sock'), clientName: 'pod/kid', target });
    cleanups.push(() => outbox.close());
    outbox.send({ kind: 'turn_ended', pod_name: 'kid' });
    expect(await outbox.drain(5000)).toBe(true);
    for (const s of sockets) s.destroy(); // the first parent dies; the kid is handed to the second
    parent = 'b';
    await new Promise((r) => setTimeout(r, 50));
    // Asked after the lookup: a report meant for the new parent goes, one for the old is dropped.
    const kept = outbox.send({ kind: 'turn_ended', pod_name: 'kid' }, { onlyIf: () => resolved === 'b' });
    const dropped = outbox.send({ kind: 'turn_ended', pod_name: 'kid' }, { onlyIf: () => resolved === 'a' });
    expect(await outbox.drain(5000)).toBe(true);
    expect([...first.attempts.keys()]).toHaveLength(1);
    expect([...second.attempts.keys()]).toEqual([kept]);
    expect(second.attempts.has(dropped)).toBe(false);
  });

  it('a stopping pod does not wait for a parent nobody listens for', async () => {
    const logged: string[] = [];
    const outbox = new PodEventOutbox({
      socketPath: path.join(makeProject(), 'gone.sock'),
      clientName: 'pod/kid',
      log: (l) => logged.push(l),
    });
    cleanups.push(() => outbox.close());
    outbox.send({ kind: 'shut_down', pod_name: 'kid' });
    expect(await outbox.drain(10_000, { giveUpIfGone: true })).toBe(true); // retryForMs is 60 s
    expect(logged).toEqual([expect.stringMatching(/^dropped the shut_down report to .*gone\.sock: .*ENOENT/)]);
  });

  it('a report the parent rejects as invalid is dropped, not retried', async () => {
    const socketPath = path.join(makeProject(), 'p.sock');
    const parent = await fakeParent(socketPath, (id, _n, s) =>
      s.write(
        `${JSON.stringify({ event: 'error', request_id: id, data: { code: 'invalid_request', message: 'no' } })}\n`,
      ),
    );
    const logged: string[] = [];
    const outbox = new PodEventOutbox({ socketPath, clientName: 'pod/kid', log: (l) => logged.push(l) });
    cleanups.push(() => outbox.close());
    const id = outbox.send({ kind: 'turn_ended', pod_name: 'kid' });
    expect(await outbox.drain(5000)).toBe(true);
    expect(parent.attempts.get(id)).toBe(1);
    expect(logged[0]).toMatch(/dropped the turn_ended report .*invalid_request: no/);
    expect(fs.existsSync(socketPath)).toBe(true);
  });
});
