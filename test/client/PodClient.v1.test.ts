import { afterEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { PodClient, PodRequestError, isSynthetic, type UnknownEvent } from '../../client/PodClient.js';
import type { Event } from '../../core/protocol/index.js';
import { startTestPod, until } from '../support/startTestPod.js';
import { startV1Pod, type V1Pod } from '../support/v1Pod.js';

/** The golden v1 wire of each named vector. */
const WIRE = Object.fromEntries(
  readFileSync(new URL('../fixtures/yoi-v1/vectors.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; name: string; wire: string })
    .map((v) => [`${v.type}/${v.name}`, v.wire]),
);

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function v1(opts: Parameters<typeof startV1Pod>[0] = {}): Promise<V1Pod> {
  const pod = await startV1Pod(opts);
  cleanups.push(() => pod.close());
  return pod;
}

async function connect(socketPath: string, extra: Partial<Parameters<typeof PodClient.connect>[0]> = {}) {
  const events: Event[] = [];
  const client = await PodClient.connect({
    socketPath,
    clientName: 'test/1',
    onEvent: (e) => events.push(e),
    ...extra,
  });
  cleanups.push(() => client.close());
  return { client, events };
}

const names = (events: Event[]) => events.map((e) => e.event);

describe('the stand-in v1 pod answers like the golden vectors', () => {
  it('unknown methods, refusals and shutdown are the vectors byte for byte', async () => {
    const pod = await v1({ run: 'hold' });
    const lines: string[] = [];
    const sock = net.connect(pod.socket);
    sock.on('data', (d) => lines.push(...d.toString().split('\n').filter(Boolean)));
    await new Promise((r) => sock.once('connect', r));
    const until = async (n: number) => {
      while (lines.length < n) await new Promise((r) => sock.once('data', r));
    };
    sock.write('{"method":"frobnicate","params":{"x":1}}\n');
    await until(1);
    expect(lines[0]).toBe(WIRE['Event/error_internal']);
    sock.write(`${WIRE['Method/cancel']}\n`);
    await until(2);
    expect(JSON.parse(lines[1])).toEqual({
      event: 'error',
      data: { code: 'not_running', message: 'Pod is not running' },
    });
    sock.write(`${WIRE['Method/run_text_only']}\n`);
    sock.write(`${WIRE['Method/run_text_only']}\n`);
    await until(6);
    expect(lines.slice(2, 5)).toEqual([
      WIRE['Event/user_message_text'].replace('hello 世界', 'Hello'),
      WIRE['Event/turn_start_0'],
      '{"event":"text_delta","data":{"text":"working"}}',
    ]);
    expect(lines[5]).toBe(WIRE['Event/error_already_running']);
    sock.write(`${WIRE['Method/pause']}\n`);
    await until(7);
    expect(lines[6]).toBe(WIRE['Event/run_end_paused']);
    sock.write(`${WIRE['Method/shutdown']}\n`);
    await until(8);
    expect(lines[7]).toBe(WIRE['Event/shutdown']);
    sock.destroy();
  });
});

describe('PodClient against a v1 pod', () => {
  it('falls back to v1 when hello is answered with an error, swallowing that error', async () => {
    const pod = await v1({ alerts: ['old alert'] });
    const { client, events } = await connect(pod.socket);
    expect(client.protocol).toBe(1);
    expect(client.welcome).toBeUndefined();
    expect(client.status).toBe('idle');
    // The replayed alert reached the listener registered before hello; hello's refusal did not.
    expect(names(events)).toEqual(['alert', 'status']);
    expect(isSynthetic(events[1])).toBe(true);
    const history = await client.request({ method: 'get_history' });
    expect(history).toMatchObject({ event: 'history', data: { greeting: { pod_name: 'legacy' } } });
  });

  it('writes plain v1 lines after hello: exactly the vectors, no request_id', async () => {
    const pod = await v1({ run: 'hold' });
    const { client } = await connect(pod.socket);
    await client.request({ method: 'get_history' });
    await client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'Hello' }] } });
    await client.request({ method: 'pause' });
    expect(pod.received[0]).toMatch(/^\{"method":"hello",/);
    expect(pod.received.slice(1)).toEqual([
      WIRE['Method/get_history'],
      WIRE['Method/run_text_only'],
      WIRE['Method/pause'],
    ]);
  });

  it('a run: a synthetic ack before user_message, the run events, a derived status', async () => {
    const pod = await v1();
    const { client, events } = await connect(pod.socket);
    events.length = 0;
    const reply = await client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'hi' }] } });
    expect(reply).toEqual({ event: 'ack', data: { method: 'run' } });
    await until(events, (e) => e.event === 'run_end');
    await until(events, (e) => e.event === 'status' && e.data.status === 'idle');
    expect(names(events)).toEqual([
      'ack',
      'user_message',
      'status',
      'turn_start',
      'text_delta',
      'text_done',
      'usage',
      'turn_end',
      'run_end',
      'status',
    ]);
    expect(events.filter(isSynthetic).map((e) => e.event)).toEqual(['ack', 'status', 'status']);
  });

  it('refusals reject the request and reach listeners as replies (with a request id), not as run failures', async () => {
    const pod = await v1({ run: 'hold' });
    const { client, events } = await connect(pod.socket);
    await client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'long' }] } });
    expect(client.status).toBe('running');
    const second = client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'again' }] } });
    await expect(second).rejects.toBeInstanceOf(PodRequestError);
    await expect(second).rejects.toMatchObject({ podCode: 'already_running' });
    const refusal = events.find((e) => e.event === 'error');
    expect(refusal?.request_id).toBeDefined();
    await expect(client.request({ method: 'resume' })).rejects.toMatchObject({ podCode: 'already_running' });
    // pause takes effect with run_end{paused}; a second pause is the original's no-op, answered at once.
    await client.request({ method: 'pause' });
    expect(client.status).toBe('paused');
    await client.request({ method: 'pause' });
    await client.request({ method: 'resume' });
    await until(events, (e) => e.event === 'run_end' && e.data.result === 'finished');
    await expect(client.request({ method: 'cancel' })).rejects.toMatchObject({ podCode: 'not_running' });
    await expect(client.request({ method: 'resume' })).rejects.toMatchObject({ podCode: 'not_paused' });
  });

  it('cancel takes effect with the original error{internal,"Cancelled"}', async () => {
    const pod = await v1({ run: 'hold' });
    const { client } = await connect(pod.socket);
    await client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'long' }] } });
    await expect(client.request({ method: 'cancel' })).resolves.toMatchObject({ event: 'ack' });
    expect(client.status).toBe('idle');
  });

  it('methods v1 lacks are refused without writing anything; notify goes out unanswered', async () => {
    const pod = await v1();
    const { client } = await connect(pod.socket);
    await expect(client.request({ method: 'compact' })).rejects.toMatchObject({ code: 'YOI_ERR_UNSUPPORTED' });
    await expect(
      client.request({ method: 'list_completions', params: { kind: 'file_ref', prefix: '' } }),
    ).rejects.toMatchObject({ code: 'YOI_ERR_UNSUPPORTED' });
    await client.request({ method: 'notify', params: { message: 'turn done' } });
    await pod.receivedCount(2);
    expect(pod.received.slice(1)).toEqual([WIRE['Method/notify']]);
  });

  it('shutdown resolves when the pod says so and goes away', async () => {
    const pod = await v1();
    const { client } = await connect(pod.socket);
    await expect(client.request({ method: 'shutdown' })).resolves.toMatchObject({ event: 'ack' });
    await client.closed;
  });

  it('a pod that never answers: v1 after the welcome bound, and every request still times out', async () => {
    const pod = await v1({ silent: true });
    const { client } = await connect(pod.socket, { welcomeTimeoutMs: 200 });
    expect(client.protocol).toBe(1);
    await expect(client.request({ method: 'get_history' }, 300)).rejects.toMatchObject({ code: 'YOI_ERR_TIMEOUT' });
  });

  it('a welcome that comes after the bound upgrades the connection to v2', async () => {
    let answer: (() => void) | undefined;
    const server = net.createServer((s) =>
      s.on('data', (d) => {
        const hello = JSON.parse(d.toString().split('\n')[0]) as { request_id: string };
        answer = () =>
          s.write(
            `${JSON.stringify({ event: 'welcome', request_id: hello.request_id, data: { protocol_version: 2, pod_name: 'late', session_id: 's', status: 'idle', segment_kinds: [], pod_event_kinds: [] } })}\n`,
          );
      }),
    );
    const pod = await v1(); // only for a socket directory
    const socket = `${pod.socket}.late`;
    await new Promise<void>((r) => server.listen(socket, r));
    cleanups.push(() => new Promise((r) => server.close(r)));
    const { client } = await connect(socket, { welcomeTimeoutMs: 50 });
    expect(client.protocol).toBe(1);
    while (!answer) await new Promise((r) => setTimeout(r, 10));
    const welcome = client.waitFor((e) => e.event === 'welcome');
    answer();
    await welcome;
    expect(client.protocol).toBe(2);
    expect(client.welcome?.pod_name).toBe('late');
  });

  it('events this build cannot decode go to onUnknownEvent listeners', async () => {
    const pod = await v1();
    const { client } = await connect(pod.socket);
    const unknown: UnknownEvent[] = [];
    client.onUnknownEvent((e) => unknown.push(e));
    const line = '{"event":"permission_request","data":{"id":"p1","tool":"Write"},"seq":4}';
    pod.broadcastLine(line);
    pod.broadcastLine('not json');
    await client.request({ method: 'get_history' });
    expect(unknown).toEqual([{ event: 'permission_request', data: { id: 'p1', tool: 'Write' }, seq: 4, line }]);
  });
});

describe('PodClient against a v2 pod', () => {
  it('negotiates v2 and never falls back', async () => {
    const pod = await startTestPod();
    cleanups.push(() => pod.stop());
    const { client } = await connect(pod.socket);
    expect(client.protocol).toBe(2);
    expect(client.welcome?.pod_name).toBe('test');
    expect(client.status).toBe('idle');
    await expect(client.request({ method: 'compact' })).rejects.toMatchObject({ podCode: 'invalid_request' });
  });
});
