import { afterEach, describe, expect, it } from '@jest/globals';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { makeProject } from '../support/startTestPod.js';
import { yoi } from '../support/runCli.js';
import { acpCleanups, acpProject, agentTextOf } from './acp/acpHarness.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const { editor, stopPodsAfter } = acpCleanups(cleanups);

const busy = {
  code: -32600,
  message: expect.stringContaining('a prompt is already running in this session'),
};

describe('yoi acp and a second prompt while one runs in the session', () => {
  it('refuses the second at once; the first runs on to its own end_turn, and a prompt after it runs', async () => {
    const root = makeProject();
    const { dir, env } = acpProject(root, [
      {
        chunks: ['Writing ', 'it.'],
        tool_calls: [{ name: 'Write', arguments: { file_path: 'out.txt', content: 'x\n' } }],
      },
      { text: 'First done.' },
      { text: 'Third done.' },
    ]);
    stopPodsAfter(dir, env);
    const ed = editor(dir, env);
    await ed.conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId, _meta } = await ed.conn.newSession({ cwd: dir, mcpServers: [] });
    const say = (text: string) => ed.conn.prompt({ sessionId, prompt: [{ type: 'text', text }] });

    // Back to back, as an editor sending twice does. The first cannot end before its permission
    // ask is answered, so whichever settles first must be the second.
    const first = say('one');
    const second = say('two');
    const settled = await Promise.race([
      first.then(
        (r) => ({ first: r as unknown }),
        (e: unknown) => ({ first: e }),
      ),
      second.then(
        (r) => ({ second: r as unknown }),
        (e: unknown) => ({ second: e }),
      ),
    ]);
    expect(settled).toEqual({ second: expect.objectContaining(busy) });

    // Mid-run (held by the ask): refused the same way.
    const ask = await ed.untilAsk();
    await expect(say('three')).rejects.toMatchObject(busy);
    ask.answer({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await first).stopReason).toBe('end_turn');
    expect(agentTextOf(ed.updates)).toContain('Writing it.');
    expect(agentTextOf(ed.updates)).toContain('First done.');

    expect((await say('four')).stopReason).toBe('end_turn');
    expect(agentTextOf(ed.updates)).toContain('Third done.');
    // The refused prompts never reached the pod.
    const pod = (_meta as { yoi: { pod: string } }).yoi.pod;
    const items = JSON.parse(yoi(['history', '--json', '--pod', pod], { cwd: dir, env }).stdout) as {
      segments?: { content?: string }[];
    }[];
    expect(items.filter((i) => i.segments).map((i) => i.segments?.[0]?.content)).toEqual(['one', 'four']);
  }, 60_000);
});
