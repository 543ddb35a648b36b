import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { LineReader, decodeMethodLine, encodeEvent, type Event, type Method } from '../../../core/protocol/index.js';
import { startTestPod, type TestPod } from '../../support/startTestPod.js';
import { attachTo, texts, type AttachHarness } from './attachHarness.js';

/**
 * A scripted pod on a real socket: it replays an alert on connect (before `hello`, as pods do),
 * answers `hello` and `get_history` (history N has one user item "v<N>"), and records methods.
 */
function fakePod(): Promise<{ socket: string; methods: Method[]; send(e: Event): void; close(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-fp-'));
  const socket = path.join(dir, 'sock');
  const methods: Method[] = [];
  const conns: net.Socket[] = [];
  const greeting = { pod_name: 'fake', cwd: dir, provider: 'echo', model: 'echo', scope_summary: '', tools: [] };
  const server = net.createServer((conn) => {
    conns.push(conn);
    const write = (e: Event) => conn.write(`${encodeEvent(e)}\n`);
    write({ event: 'alert', data: { level: 'warn', source: 'pod', message: 'replayed on connect', timestamp_ms: 5 } });
    const reader = new LineReader({
      onLine: (line) => {
        const m = decodeMethodLine(line);
        if (!m.ok) return;
        methods.push(m.value);
        const request_id = m.value.request_id;
        if (m.value.method === 'hello') {
          write({
            event: 'welcome',
            request_id,
            data: {
              protocol_version: 2,
              pod_name: 'fake',
              session_id: 's-1',
              status: 'idle',
              segment_kinds: [],
              pod_event_kinds: [],
            },
          });
        } else if (m.value.method === 'get_history') {
          const n = methods.filter((x) => x.method === 'get_history').length;
          write({
            event: 'history',
            request_id,
            data: { greeting, items: [{ type: 'message', role: 'user', content: [{ type: 'text', text: `v${n}` }] }] },
          });
        }
      },
      onError: () => undefined,
    });
    conn.on('data', (c: Buffer) => reader.push(c));
    conn.on('error', () => undefined);
  });
  return new Promise((resolve) =>
    server.listen(socket, () =>
      resolve({
        socket,
        methods,
        send: (e) => conns.forEach((c) => c.write(`${encodeEvent(e)}\n`)),
        close: () => {
          conns.forEach((c) => c.destroy());
          server.close();
        },
      }),
    ),
  );
}

let h: AttachHarness | undefined;
let tp: TestPod | undefined;
afterEach(async () => {
  await h?.stop();
  await tp?.stop();
  h = undefined;
  tp = undefined;
});

describe('yoi attach keeping up with the pod', () => {
  it('shows the alerts a pod replays before hello, and resyncs with get_history on lagged', async () => {
    const pod = await fakePod();
    try {
      h = await attachTo(pod.socket);
      let s = await h.until((st) => texts(st).includes('user: v1'));
      expect(pod.methods.map((m) => m.method)).toEqual(['hello', 'get_history']);
      expect(texts(s)).toEqual(['user: v1', 'alert: [notice] pod: replayed on connect']);
      pod.send({ event: 'text_delta', seq: 10, data: { text: 'partial' } });
      pod.send({ event: 'lagged', data: { from_seq: 11, to_seq: 500 } });
      s = await h.until((st) => texts(st).includes('user: v2'));
      expect(pod.methods.map((m) => m.method)).toEqual(['hello', 'get_history', 'get_history']);
      expect(texts(s)).toEqual([
        'user: v2',
        'alert: [notice] pod: replayed on connect',
        'info: [resync] events 11–500 were skipped; reloading the history',
      ]);
    } finally {
      pod.close();
    }
  });

  it('takes every keystroke typed while 10 000 deltas stream in, rendering in batches', async () => {
    const chunks = Array.from({ length: 10_000 }, (_, i) => `${i % 10}`);
    tp = await startTestPod({
      files: { 'replies.json': JSON.stringify([{ chunks }]) },
      config: { model: { provider: 'scripted', script: 'replies.json' } },
    });
    h = await attachTo(tp.socket);
    await h.until((s) => s.connection === 'connected');
    let updates = 0;
    h.store.subscribe(() => updates++);
    h.type('go\r');
    await h.until((s) => s.transcript.status === 'running');
    const typed = 'the quick brown fox jumps over the lazy dog '.repeat(5);
    for (const ch of typed) {
      h.type(ch);
      await new Promise((r) => setImmediate(r));
    }
    const s = await h.until(
      (st) =>
        st.transcript.status === 'idle' && st.transcript.blocks.some((b) => b.kind === 'note' && b.tone === 'stats'),
      30_000,
    );
    const answer = s.transcript.blocks.find((b) => b.kind === 'assistant');
    expect(answer?.kind === 'assistant' && answer.text).toBe(chunks.join(''));
    expect(s.input.atoms.map((a) => (a.kind === 'char' ? a.ch : '')).join('')).toBe(typed);
    // Keystrokes update at once; the deltas arrive in far fewer batched updates than events.
    expect(updates - typed.length).toBeLessThan(chunks.length / 10);
  });
});
