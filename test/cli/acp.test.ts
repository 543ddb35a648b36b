import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROTOCOL_VERSION, type RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { PodClient, type UnknownEvent } from '../../client/PodClient.js';
import type { Event } from '../../core/protocol/index.js';
import { makeProject } from '../support/startTestPod.js';
import { BIN, yoi } from '../support/runCli.js';
import { acpCleanups, acpProject, agentTextOf, isChunk } from './acp/acpHarness.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const { editor, stopPodsAfter } = acpCleanups(cleanups);

describe('yoi acp', () => {
  it('initialize → new → prompt with a file link → tool call → permission → cancel → load, with a second client on the same pod', async () => {
    const root = makeProject();
    const { dir, env } = acpProject(root, [
      { chunks: ['Reading ', 'it.'], tool_calls: [{ name: 'Read', arguments: { file_path: 'notes/a.txt' } }] },
      { text: 'The file says hello.' },
      { tool_calls: [{ name: 'Write', arguments: { file_path: 'out.txt', content: 'written\n' } }] },
      { text: 'Wrote out.txt.' },
      { text: 'too late', delay_ms: 120_000 },
      { tool_calls: [{ name: 'Write', arguments: { file_path: 'out2.txt', content: 'again\n' } }] },
      { text: 'Wrote out2.txt.' },
    ]);
    fs.mkdirSync(path.join(dir, 'notes'));
    fs.writeFileSync(path.join(dir, 'notes', 'a.txt'), 'hello from a file\n');
    fs.mkdirSync(path.join(dir, '.yoi', 'workflows'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.yoi', 'workflows', 'review.md'), 'Review the change for bugs.\n');
    stopPodsAfter(dir, env);
    const ed = editor(dir, env);

    // Version negotiation: a client asking for a newer version gets the one yoi speaks.
    const init = await ed.conn.initialize({
      protocolVersion: PROTOCOL_VERSION + 1,
      clientCapabilities: {},
      clientInfo: { name: 'test-editor', version: '1' },
    });
    expect(init).toMatchObject({
      protocolVersion: PROTOCOL_VERSION,
      authMethods: [],
      agentCapabilities: { loadSession: true, promptCapabilities: { embeddedContext: true, image: false } },
    });

    const created = await ed.conn.newSession({ cwd: dir, mcpServers: [] });
    const podName = (created._meta as { yoi: { pod: string } }).yoi.pod;
    expect(podName).toMatch(/^proj-[0-9a-f]{8}$/);
    const socket = path.join(env.YOI_RUNTIME_DIR!, podName, 'sock');
    // The pod outlives the editor: it runs detached, and its session id is the ACP session's.
    const watcher = await PodClient.connect({ socketPath: socket, clientName: 'watcher/1' });
    cleanups.push(() => watcher.close());
    expect(watcher.welcome?.session_id).toBe(created.sessionId);
    const watched: Event[] = [];
    watcher.onEvent((e) => watched.push(e));
    const watchedAsks: UnknownEvent[] = [];
    watcher.onUnknownEvent((e) => watchedAsks.push(e));

    // 1. A prompt with a file link: the link becomes a file_ref relative to the pod's cwd.
    const sid = created.sessionId;
    const first = await ed.conn.prompt({
      sessionId: sid,
      prompt: [
        { type: 'text', text: 'Read' },
        { type: 'resource_link', uri: pathToFileURL(path.join(dir, 'notes', 'a.txt')).href, name: 'a.txt' },
        { type: 'text', text: 'please' },
      ],
    });
    expect(first.stopReason).toBe('end_turn');
    // The editor may hear of the end before the second client's copy of the run arrives.
    await until(watched, (e) => e.event === 'run_end');
    const user = watched.find((e) => e.event === 'user_message');
    expect(JSON.parse(JSON.stringify(user?.data))).toEqual({
      segments: [
        { kind: 'text', content: 'Read' },
        { kind: 'file_ref', path: 'notes/a.txt' },
        { kind: 'text', content: ' please' },
      ],
    });
    expect(watched.some((e) => e.event === 'text_delta')).toBe(true); // the second client saw the same run
    const updates = ed.updates.filter((u) => u.sessionId === sid).map((u) => u.update);
    expect(updates.some((u) => u.sessionUpdate === 'user_message_chunk')).toBe(false); // the editor shows its own prompt
    expect(agentTextOf(ed.updates)).toContain('Reading it.');
    expect(agentTextOf(ed.updates)).toContain('The file says hello.');
    const call = updates.find((u) => u.sessionUpdate === 'tool_call');
    expect(call).toMatchObject({ kind: 'read', status: 'pending', title: 'Read' });
    const id = (call as { toolCallId: string }).toolCallId;
    expect(updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress')).toMatchObject({
      toolCallId: id,
      title: 'Read notes/a.txt',
      rawInput: { file_path: 'notes/a.txt' },
      locations: [{ path: path.join(dir, 'notes', 'a.txt') }],
    });
    const done = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed') as {
      content: { content: { text: string } }[];
    };
    expect(done.content[0].content.text).toContain('hello from a file');

    // 2. A Write asks for permission: the editor gets the pod's options and its answer goes back.
    const writing = ed.conn.prompt({ sessionId: sid, prompt: [{ type: 'text', text: 'write it' }] });
    const ask = await ed.untilAsk();
    expect(ask.request.options.map((o) => [o.optionId, o.kind])).toEqual([
      ['allow_once', 'allow_once'],
      ['allow_always', 'allow_always'],
      ['reject_once', 'reject_once'],
      ['reject_always', 'reject_always'],
    ]);
    expect(ask.request.toolCall).toMatchObject({
      title: 'Write out.txt',
      kind: 'edit',
      rawInput: { file_path: 'out.txt', content: 'written\n' },
    });
    const writeCall = ed.updates.map((u) => u.update).findLast((u) => u.sessionUpdate === 'tool_call') as {
      toolCallId: string;
    };
    expect(ask.request.toolCall.toolCallId).toBe(writeCall.toolCallId);
    ask.answer({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await writing).stopReason).toBe('end_turn');
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('written\n');
    expect((await until(watchedAsks, (e) => e.event === 'permission_resolved')).data).toMatchObject({
      decision: 'allow_once',
      by: expect.stringMatching(/^yoi-acp\//),
    });

    // 3. Cancel: the slow reply is abandoned and the prompt answers `cancelled`.
    const slow = ed.conn.prompt({ sessionId: sid, prompt: [{ type: 'text', text: 'take your time' }] });
    await until(watched, (e) => e.event === 'user_message' && JSON.stringify(e.data).includes('take your time'));
    await ed.conn.cancel({ sessionId: sid });
    expect((await slow).stopReason).toBe('cancelled');
    await until(watched, (e) => e.event === 'run_end' && e.data.result === 'cancelled');

    // 4. Another client's run shows in the editor; its answer to an ask withdraws the editor's.
    await until(watched, (e) => e.event === 'status' && e.data.status === 'idle');
    const asking = ed.conn.prompt({ sessionId: sid, prompt: [{ type: 'text', text: 'write again' }] });
    await ed.untilAsk();
    const pending = await until(
      watchedAsks,
      (e) => e.event === 'permission_request' && JSON.stringify(e.data).includes('out2.txt'),
    );
    await watcher.requestExtension('permission_reply', {
      id: (pending.data as { id: string }).id,
      decision: 'allow_once',
    });
    expect((await asking).stopReason).toBe('end_turn');
    expect(fs.readFileSync(path.join(dir, 'out2.txt'), 'utf8')).toBe('again\n');
    await watcher.request({ method: 'run', params: { input: [{ kind: 'text', content: 'from the terminal' }] } });
    await ed.until(
      (u) => u.sessionUpdate === 'user_message_chunk' && (u.content as { text?: string }).text === 'from the terminal',
    );
    await ed.until(isChunk('[user] from the terminal')); // the echo reply of that run
    // A notification (a `notify`, as a child pod's report would be) reaches the editor as a message.
    await until(
      watched,
      (e) =>
        e.event === 'status' &&
        e.data.status === 'idle' &&
        watched.indexOf(e) >
          watched.findIndex((x) => x.event === 'user_message' && JSON.stringify(x.data).includes('from the terminal')),
    );
    watcher.send({ method: 'notify', params: { message: 'ci is green' } });
    await ed.until(isChunk('notification: ci is green'));
    expect(await ed.close()).toBe(0);

    // 5. Load in a new editor while the pod still runs: the history is replayed as updates.
    const again = editor(dir, env);
    await again.conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    await expect(again.conn.loadSession({ sessionId: sid, cwd: dir, mcpServers: [] })).resolves.toEqual({});
    const replayed = again.updates.map((u) => u.update);
    expect(
      replayed
        .filter((u) => u.sessionUpdate === 'user_message_chunk')
        .map((u) => u.content as { type: string; text?: string; uri?: string }),
    ).toEqual(
      expect.arrayContaining([
        { type: 'text', text: 'Read' },
        expect.objectContaining({ type: 'resource_link', uri: pathToFileURL(path.join(dir, 'notes', 'a.txt')).href }),
        { type: 'text', text: 'write it' },
      ]),
    );
    expect(agentTextOf(again.updates)).toContain('The file says hello.');
    expect(replayed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          sessionUpdate: 'tool_call',
          toolCallId: id,
          kind: 'read',
          title: 'Read notes/a.txt',
        }),
        expect.objectContaining({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed' }),
      ]),
    );
    await again.close();

    // 6. Load after the pod stopped: it starts again on that session (`--resume`).
    expect(yoi(['pod', 'stop', '--pod', podName], { cwd: dir, env }).status).toBe(0);
    const third = editor(dir, env);
    await third.conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    await third.conn.loadSession({ sessionId: sid, cwd: dir, mcpServers: [] });
    expect(agentTextOf(third.updates)).toContain('Wrote out2.txt.');
    const resumed = await PodClient.connect({ socketPath: socket, clientName: 'check/1' });
    expect(resumed.welcome?.session_id).toBe(sid);
    await resumed.close();
    // The pod's workflows are the editor's commands; `/review …` invokes one.
    expect(await third.until((u) => u.sessionUpdate === 'available_commands_update')).toMatchObject({
      availableCommands: [{ name: 'review', description: 'yoi workflow review' }],
    });
    const after = await third.conn.prompt({ sessionId: sid, prompt: [{ type: 'text', text: '/review still there?' }] });
    expect(after.stopReason).toBe('end_turn');
    const log = yoi(['history', '--json', '--pod', podName], { cwd: dir, env });
    const items = JSON.parse(log.stdout) as { segments?: unknown }[];
    expect(items.filter((i) => i.segments).at(-1)?.segments).toEqual([
      { kind: 'workflow_invoke', slug: 'review' },
      { kind: 'text', content: 'still there?' },
    ]);
  }, 120_000);
});

async function until<T extends { event: string }>(
  events: T[],
  pred: (e: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = events.find(pred);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out; saw ${JSON.stringify(events.map((e) => e.event))}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A raw stdio session with `yoi acp`: lines in, JSON-RPC messages out. */
function rawAgent(cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, 'acp'], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  cleanups.push(async () => {
    child.stdin.end();
    await exited;
  });
  let out = '';
  const messages: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  child.stdout.on('data', (d) => {
    out += d;
    const lines = out.split('\n');
    out = lines.pop()!;
    for (const line of lines) messages.push(JSON.parse(line) as Record<string, unknown>); // stdout is protocol only: every line is JSON
    for (const w of [...waiters]) w();
  });
  return {
    child,
    messages,
    exited,
    write: (text: string) => new Promise<void>((r) => child.stdin.write(text, () => r())),
    reply: (pred: (m: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const check = () => {
          const m = messages.find(pred);
          if (m) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(m);
          }
        };
        const timer = setTimeout(
          () => reject(new Error(`no such message; got ${JSON.stringify(messages).slice(0, 2000)}`)),
          30_000,
        );
        waiters.add(check);
        check();
      }),
  };
}

describe('yoi acp while another client runs', () => {
  it("a prompt waits for the other client's run and then runs; cancelling a waiting prompt never cancels the other run", async () => {
    const root = makeProject();
    const { dir, env } = acpProject(root, [
      { text: "the terminal's slow reply", delay_ms: 120_000 },
      { text: 'second slow', delay_ms: 120_000 },
    ]);
    stopPodsAfter(dir, env);
    const ed = editor(dir, env);
    await ed.conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId, _meta } = await ed.conn.newSession({ cwd: dir, mcpServers: [] });
    const terminal = await PodClient.connect({
      socketPath: path.join(env.YOI_RUNTIME_DIR!, (_meta as { yoi: { pod: string } }).yoi.pod, 'sock'),
      clientName: 'terminal/1',
    });
    cleanups.push(() => terminal.close());
    const seen: Event[] = [];
    terminal.onEvent((e) => seen.push(e));
    await terminal.request({ method: 'run', params: { input: [{ kind: 'text', content: 'long job' }] } });
    await ed.until((u) => u.sessionUpdate === 'user_message_chunk'); // the terminal's input, mirrored
    const waiting = ed.conn.prompt({ sessionId, prompt: [{ type: 'text', text: 'my turn' }] });
    await ed.conn.cancel({ sessionId }); // right behind the prompt
    expect((await waiting).stopReason).toBe('cancelled');
    expect(seen.some((e) => e.event === 'run_end')).toBe(false); // the terminal's run goes on
    // Queued behind the terminal's run, the editor's prompt runs once the pod is idle again.
    const queued = ed.conn.prompt({ sessionId, prompt: [{ type: 'text', text: 'after you' }] });
    terminal.send({ method: 'cancel' });
    await until(seen, (e) => e.event === 'user_message' && JSON.stringify(e.data).includes('after you'));
    await ed.conn.cancel({ sessionId });
    expect((await queued).stopReason).toBe('cancelled');
    // The editor may hear of the end before the terminal's copy of run_end arrives.
    await until(seen, (e) => e.event === 'run_end' && seen.filter((x) => x.event === 'run_end').length >= 2);
    expect(
      seen.filter((e) => e.event === 'run_end').map((e) => (e as { data: { result: string } }).data.result),
    ).toEqual(['cancelled', 'cancelled']);
  }, 60_000);
});

describe('yoi acp with bad input', () => {
  it('answers malformed JSON-RPC, unknown methods, bad params and an oversized line with JSON-RPC errors and keeps serving', async () => {
    const dir = makeProject();
    const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
    const agent = rawAgent(dir, env);
    await agent.write('this is not json\n');
    await agent.write('{"jsonrpc":"2.0","id":1,"method":"session/teleport","params":{}}\n');
    await agent.write('{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s"}}\n');
    await agent.write(
      '{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"hi"}]}}\n',
    );
    await agent.write(
      '{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":"relative/dir","mcpServers":[]}}\n',
    );
    await agent.write(
      '{"jsonrpc":"2.0","id":5,"method":"session/load","params":{"sessionId":"01a2313a-6dc7-7355-8bae-56b3f64cf2a9","cwd":' +
        JSON.stringify(dir) +
        ',"mcpServers":[]}}\n',
    );
    expect(await agent.reply((m) => m.id === null)).toMatchObject({ error: { code: -32700 } });
    expect(await agent.reply((m) => m.id === 1)).toMatchObject({ error: { code: -32601 } });
    expect(await agent.reply((m) => m.id === 2)).toMatchObject({ error: { code: -32602 } });
    expect(await agent.reply((m) => m.id === 3)).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('unknown session nope') },
    });
    expect(await agent.reply((m) => m.id === 4)).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('cwd must be an absolute path') },
    });
    expect(await agent.reply((m) => m.id === 5)).toMatchObject({ error: { code: -32002 } });
    // A line over the limit (32 MiB) is dropped as it streams in and answered like any bad line.
    const before = agent.messages.filter((m) => m.id === null).length;
    const big = Buffer.alloc(33 * 1024 * 1024, 0x61);
    await agent.write(`{"jsonrpc":"2.0","id":6,"method":"session/prompt","params":{"x":"`);
    await agent.write(big.toString('latin1'));
    await agent.write('"}}\n');
    await agent.reply(() => agent.messages.filter((m) => m.id === null).length > before);
    expect(agent.messages.some((m) => m.id === 6)).toBe(false);
    await agent.write(
      `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":${PROTOCOL_VERSION}}}\n`,
    );
    expect(await agent.reply((m) => m.id === 7)).toMatchObject({
      result: { protocolVersion: PROTOCOL_VERSION, agentCapabilities: { loadSession: true } },
    });
    agent.child.stdin.end();
    expect(await agent.exited).toBe(0);
  }, 60_000);
});

describe('yoi acp and a JSON-RPC batch', () => {
  it('answers a JSON array with Invalid Request and keeps the connection: the prompt in flight and later requests are answered', async () => {
    const root = makeProject();
    const { dir, env } = acpProject(root, [
      { tool_calls: [{ name: 'Write', arguments: { file_path: 'out.txt', content: 'kept\n' } }] },
      { text: 'Wrote out.txt.' },
    ]);
    stopPodsAfter(dir, env);
    const agent = rawAgent(dir, env);
    const send = (message: Record<string, unknown>) =>
      agent.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const initialize = { method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION } };
    await send({ id: 1, ...initialize });
    await send({ id: 2, method: 'session/new', params: { cwd: dir, mcpServers: [] } });
    const { sessionId } = (await agent.reply((m) => m.id === 2)).result as { sessionId: string };
    await send({
      id: 3,
      method: 'session/prompt',
      params: { sessionId, prompt: [{ type: 'text', text: 'write it' }] },
    });
    // The prompt is in flight, held by its permission ask until the editor answers.
    const ask = await agent.reply((m) => m.method === 'session/request_permission');
    await agent.write('[]\n');
    await agent.write(`[${JSON.stringify({ jsonrpc: '2.0', id: 4, ...initialize })}]\n`);
    await send({ id: 5, ...initialize });
    expect(await agent.reply((m) => m.id === 5)).toMatchObject({ result: { protocolVersion: PROTOCOL_VERSION } });
    const invalid = { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('batches') } };
    expect(agent.messages.filter((m) => m.id === null)).toEqual([invalid, invalid]);
    expect(agent.messages.some((m) => m.id === 4)).toBe(false); // a batch's requests are not run
    await send({ id: ask.id, result: { outcome: { outcome: 'selected', optionId: 'allow_once' } } });
    expect(await agent.reply((m) => m.id === 3)).toMatchObject({ result: { stopReason: 'end_turn' } });
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('kept\n');
    expect(agent.child.exitCode).toBeNull();
    agent.child.stdin.end();
    expect(await agent.exited).toBe(0);
  }, 60_000);
});

describe('yoi acp and prompts the pod cannot take', () => {
  it("a prompt over the pod's line limit is a refusal saying why; the session and the pod go on", async () => {
    const dir = makeProject({ 'yoi.config.json': JSON.stringify({ limits: { maxLineBytes: 4096 } }) });
    const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
    stopPodsAfter(dir, env);
    const ed = editor(dir, env);
    await ed.conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await ed.conn.newSession({ cwd: dir, mcpServers: [] });
    const refused = await ed.conn.prompt({
      sessionId,
      prompt: [
        { type: 'text', text: 'summarise' },
        { type: 'resource', resource: { uri: 'file:///elsewhere/big.log', text: 'x'.repeat(10_000) } },
      ],
    });
    expect(refused.stopReason).toBe('refusal');
    expect(agentTextOf(ed.updates)).toMatch(/yoi refused this prompt: invalid_request: .*line exceeds the 4 KiB limit/);
    const next = await ed.conn.prompt({ sessionId, prompt: [{ type: 'text', text: 'small one' }] });
    expect(next.stopReason).toBe('end_turn');
    expect(agentTextOf(ed.updates)).toContain('[user] small one');
  }, 60_000);
});

describe('yoi acp and a malformed answer to a permission ask', () => {
  it('is a dismissal said once on stderr: the pod is answered, and yoi acp and the session go on', async () => {
    const root = makeProject();
    const malformed = [null, {}, { outcome: { outcome: 'perhaps' } }];
    const { dir, env } = acpProject(root, [
      ...malformed.flatMap((_, i) => [
        { tool_calls: [{ name: 'Write', arguments: { file_path: `out${i}.txt`, content: 'no\n' } }] },
        { text: `Not written ${i}.` },
      ]),
      { text: 'Still here.' },
    ]);
    stopPodsAfter(dir, env);
    const ed = editor(dir, env);
    await ed.conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await ed.conn.newSession({ cwd: dir, mcpServers: [] });
    for (const [i, answer] of malformed.entries()) {
      const writing = ed.conn.prompt({ sessionId, prompt: [{ type: 'text', text: `write ${i}` }] });
      const ask = await ed.untilAsk();
      // The SDK hands whatever the editor returns to yoi acp unchecked.
      ask.answer(answer as unknown as RequestPermissionResponse);
      // The pod's call is rejected now, not left to the deadline, and the turn goes on.
      expect((await writing).stopReason).toBe('end_turn');
      expect(agentTextOf(ed.updates)).toContain(`Not written ${i}.`);
      const failed = ed.updates
        .map((u) => u.update)
        .findLast((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed');
      expect(JSON.stringify(failed)).toContain('no valid answer from the editor');
      expect(fs.existsSync(path.join(dir, `out${i}.txt`))).toBe(false);
      await ed.untilSaid(`malformed answer from the editor, taken as a dismissal: ${JSON.stringify(answer)}\n`);
    }
    expect(ed.stderr().match(/malformed answer from the editor/g)).toHaveLength(malformed.length);
    const after = await ed.conn.prompt({ sessionId, prompt: [{ type: 'text', text: 'still there?' }] });
    expect(after.stopReason).toBe('end_turn');
    expect(agentTextOf(ed.updates)).toContain('Still here.');
    expect(await ed.close()).toBe(0);
  }, 60_000);
});
