import { describe, expect, it } from '@jest/globals';
import type { RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { PermissionBridge, type PermissionPort } from '../../../cli/acp/PermissionBridge.js';

function harness(opts: { cancelled?: boolean } = {}) {
  const asks: Array<{
    request: Parameters<PermissionPort['ask']>[0];
    signal: AbortSignal;
    answer: (r: RequestPermissionResponse) => void;
  }> = [];
  const replies: unknown[] = [];
  const logs: string[] = [];
  const bridge = new PermissionBridge(
    {
      ask: (request, signal) => new Promise((answer) => asks.push({ request, signal, answer })),
      reply: async (id, decision, message) => void replies.push({ id, decision, ...(message ? { message } : {}) }),
      callOf: (tool) => (tool === 'Write' ? { id: 'call-7', title: 'Write a.txt' } : undefined),
      kindOf: () => 'edit',
      log: (l) => void logs.push(l),
    },
    () => opts.cancelled ?? false,
  );
  return { bridge, asks, replies, logs };
}
const ask = (id: string, extra: object = {}) => ({
  id,
  tool: 'Write',
  args: { file_path: 'a.txt' },
  summary: 'Write a.txt',
  options: ['allow_once', 'reject_once'],
  deadline_ms: 1000,
  default: 'reject_once',
  ...extra,
});
const settle = () => new Promise((r) => setImmediate(r));

describe('permission asks between the pod and the editor', () => {
  it("forwards the pod's options on the call it is about, and replies with the chosen decision", async () => {
    const h = harness();
    h.bridge.onRequest(ask('a1', { pod: 'helper' }));
    h.bridge.onRequest(ask('a1')); // re-sent after a reconnect: asked once
    expect(h.asks).toHaveLength(1);
    expect(h.asks[0].request).toEqual({
      toolCall: {
        toolCallId: 'call-7',
        title: '[helper] Write a.txt',
        kind: 'edit',
        status: 'pending',
        rawInput: { file_path: 'a.txt' },
      },
      options: [
        { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
      ],
    });
    h.asks[0].answer({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    await settle();
    expect(h.replies).toEqual([{ id: 'a1', decision: 'allow_once' }]);
  });

  it('an answer from elsewhere withdraws the ask; a dismissed ask is rejected once; an option never offered is not sent', async () => {
    const h = harness();
    h.bridge.onRequest(ask('b1'));
    h.bridge.onRequest(ask('b2'));
    h.bridge.onRequest(ask('b3'));
    h.bridge.onResolved({ id: 'b1', decision: 'allow_once', by: 'yoi-cli' });
    expect(h.asks[0].signal.aborted).toBe(true);
    h.asks[0].answer({ outcome: { outcome: 'selected', optionId: 'reject_once' } }); // too late: ignored
    h.asks[1].answer({ outcome: { outcome: 'cancelled' } });
    h.asks[2].answer({ outcome: { outcome: 'selected', optionId: 'allow_always' } });
    await settle();
    expect(h.replies).toEqual([{ id: 'b2', decision: 'reject_once', message: 'dismissed in the editor' }]);
    expect(h.logs.join('\n')).toContain('an option that was not offered ("allow_always")');
  });

  it("after the editor cancelled the turn, a dismissed ask is left to the pod's cancel; malformed asks are ignored", async () => {
    const h = harness({ cancelled: true });
    h.bridge.onRequest(ask('c1'));
    h.asks[0].answer({ outcome: { outcome: 'cancelled' } });
    h.bridge.onRequest({ id: 3, tool: 'x' });
    h.bridge.onRequest(ask('c2', { options: ['maybe'] }));
    await settle();
    expect(h.replies).toEqual([]);
    expect(h.asks).toHaveLength(1);
    expect(h.logs.filter((l) => l.startsWith('ignoring a malformed permission_request'))).toHaveLength(2);
  });

  it('a malformed answer is rejected once and said in one line; a failing ask is logged, never thrown', async () => {
    const h = harness();
    const answers = [
      null,
      {},
      { outcome: null },
      { outcome: { outcome: 'maybe' } },
      { outcome: { outcome: 'selected' } },
    ];
    answers.forEach((_, i) => h.bridge.onRequest(ask(`e${i}`)));
    answers.forEach((a, i) => h.asks[i].answer(a as unknown as RequestPermissionResponse));
    await settle();
    expect(h.replies).toEqual(
      answers.map((_, i) => ({ id: `e${i}`, decision: 'reject_once', message: 'no valid answer from the editor' })),
    );
    expect(h.logs).toEqual(
      answers.map(
        (a, i) => `permission ask e${i}: malformed answer from the editor, taken as a dismissal: ${JSON.stringify(a)}`,
      ),
    );
    // A long answer is cut; after the editor cancelled the turn, the pod's cancel resolves the ask.
    const late = harness({ cancelled: true });
    late.bridge.onRequest(ask('f1'));
    late.asks[0].answer({ outcome: { outcome: 'x'.repeat(5000) } } as unknown as RequestPermissionResponse);
    await settle();
    expect(late.replies).toEqual([]);
    expect(late.logs[0]).toMatch(/taken as a dismissal: \{"outcome":\{"outcome":"x{177}…$/);
    // Whatever fails on the way is said, and the ask's slot is freed (a re-sent ask is asked again).
    const logs: string[] = [];
    const bridge = new PermissionBridge(
      {
        ask: () => Promise.reject(new Error('not asked')),
        reply: async () => {},
        callOf: () => {
          throw new Error('no such call');
        },
        kindOf: () => 'other',
        log: (l) => void logs.push(l),
      },
      () => false,
    );
    bridge.onRequest(ask('g1'));
    await settle();
    bridge.onRequest(ask('g1'));
    await settle();
    expect(logs).toEqual(['permission ask g1: no such call', 'permission ask g1: no such call']);
  });

  it('at most 32 asks wait on the editor', () => {
    const h = harness();
    for (let i = 0; i < 40; i++) h.bridge.onRequest(ask(`d${i}`));
    expect(h.asks).toHaveLength(32);
    h.bridge.close();
    expect(h.asks.every((a) => a.signal.aborted)).toBe(true);
  });
});
