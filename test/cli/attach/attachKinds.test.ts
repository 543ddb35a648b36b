import { afterEach, describe, expect, it } from '@jest/globals';
import { stripVTControlCharacters } from 'node:util';
import { viewport } from '../../../cli/attach/viewport.js';
import { UnknownSegment } from '../../../core/protocol/index.js';
import { envResolver } from '../../../examples/env-resolver/envResolver.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { runEnded, startTestPod, text, type TestPod, childReporter } from '../../support/startTestPod.js';
import { waitTool } from '../../support/testPlugins.js';
import { attachTo, inputText, texts, type AttachHarness } from './attachHarness.js';

let tp: TestPod | undefined;
const harnesses: AttachHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.stop();
  await tp?.stop();
  tp = undefined;
});

const attach = async (socket: string) => {
  const h = await attachTo(socket);
  harnesses.push(h);
  await h.until((s) => s.connection === 'connected' && s.transcript.status !== undefined);
  return h;
};
const has = (s: Parameters<typeof texts>[0], needle: string) => texts(s).some((t) => t.includes(needle));
const screen = (h: AttachHarness, details = false) => {
  const s = h.store.getState();
  return viewport(s.transcript.blocks, [], 100, 200, 'follow', details, s.transcript.kinds).lines.map((l) =>
    stripVTControlCharacters(l).trimEnd(),
  );
};

/**
 * A pod with a third-party kind (the env-resolver example: `env_ref{name}` resolved and
 * completed by a plugin, declared with the sigil `$`); without `sigil` its welcome advertises
 * the kind without one.
 */
async function envPod(sigil: boolean): Promise<TestPod> {
  process.env.PUBLIC_ATTACH_TEST = 'visible';
  const pod = await startTestPod({ plugins: [...defaultPlugins(), envResolver({ allow: ['PUBLIC_*'] })] });
  if (!sigil) {
    // The example declares `$`; this pod advertises the kind without it, as one declared without a sigil.
    const welcome = pod.pod.welcome.bind(pod.pod);
    pod.pod.welcome = (conn) => {
      const w = welcome(conn);
      return { ...w, segments: w.segments.map((k) => (k.kind === 'env_ref' ? { kind: k.kind } : k)) };
    };
  }
  return pod;
}

describe('segment kinds from the welcome', () => {
  it('types, completes, sends and rebuilds a third-party kind through the sigil its pod advertises', async () => {
    tp = await envPod(true);
    const h = await attach(tp.socket);
    expect(h.store.getState().transcript.kinds.kind('env_ref')).toMatchObject({ sigil: '$', field: 'name' });
    h.type('value of $PUBLIC_ATT\t');
    await h.until((s) => inputText(s) === 'value of $PUBLIC_ATTACH_TEST');
    expect(h.store.getState().completion).toMatchObject({ kind: 'env_ref', sigil: '$', items: ['PUBLIC_ATTACH_TEST'] });
    h.type(' please\r');
    const s = await h.until((st) => st.transcript.status === 'idle' && has(st, 'assistant: '));
    const user = s.transcript.blocks.find((b) => b.kind === 'user');
    expect(JSON.stringify(user?.kind === 'user' && user.segments)).toBe(
      '[{"kind":"text","content":"value of "},{"kind":"env_ref","name":"PUBLIC_ATTACH_TEST"},{"kind":"text","content":" please"}]',
    );
    expect(texts(s).find((t) => t.startsWith('assistant:'))).toContain('[system] [Env: PUBLIC_ATTACH_TEST]\nvisible');
    expect(screen(h)).toContain('❯ value of $PUBLIC_ATTACH_TEST please');

    // A second client rebuilds it from history as the same reference; Up recalls it as typed.
    const other = await attach(tp.socket);
    await other.until((st) => st.transcript.blocks.some((b) => b.kind === 'user'));
    expect(screen(other)).toContain('❯ value of $PUBLIC_ATTACH_TEST please');
    const rebuilt = other.store.getState().transcript.blocks.find((b) => b.kind === 'user');
    expect(rebuilt?.kind === 'user' && rebuilt.segments?.[1]).toBeInstanceOf(UnknownSegment);
  });

  it('shows a kind without a sigil as a labelled chip, live and from history, and `$` stays text', async () => {
    tp = await envPod(false);
    const h = await attach(tp.socket);
    expect(h.store.getState().transcript.kinds.kind('env_ref')).toBeUndefined();
    const c = await tp.connect();
    const ended = runEnded(c);
    await c.request({
      method: 'run',
      params: { input: [text('env '), new UnknownSegment({ kind: 'env_ref', name: 'PUBLIC_ATTACH_TEST' })] },
    });
    await ended;
    await h.until((s) => s.transcript.status === 'idle' && has(s, 'assistant: '));
    expect(screen(h)).toContain('❯ env [env_ref: PUBLIC_ATTACH_TEST]');
    expect(screen(h).join('\n')).not.toMatch(/unknown/i);
    const replay = await attach(tp.socket);
    await replay.until((s) => s.transcript.blocks.some((b) => b.kind === 'user'));
    expect(screen(replay)).toContain('❯ env [env_ref: PUBLIC_ATTACH_TEST]');
    // No sigil is `$` here: typed, it is text.
    expect(
      h.store
        .getState()
        .transcript.kinds.sigils.map((k) => k.sigil)
        .sort(),
    ).toEqual(['#', '&', '/', '@']);
    h.type('$HOME\r');
    await h.until((s) => s.transcript.status === 'idle' && has(s, 'assistant: [user] $HOME'));
    await c.close();
  });
});

describe('notifications', () => {
  it('shows a notification and a child report as they arrive, one line each, expanded with Ctrl-O', async () => {
    tp = await startTestPod({
      files: {
        'r.json': JSON.stringify([{ tool_calls: [{ name: 'Wait', arguments: { ms: 1500 } }] }, { text: 'noted' }]),
      },
      config: { model: { provider: 'scripted', script: 'r.json' } },
      plugins: [...defaultPlugins(), waitTool()],
    });
    const h = await attach(tp.socket);
    h.type('go\r');
    await h.until((s) => s.transcript.blocks.some((b) => b.kind === 'tool' && b.state === 'running'));
    const c = await tp.connect();
    await c.request({ method: 'notify', params: { message: 'build finished\nall 212 tests passed\ncoverage 91%' } });
    const kid = await childReporter(tp, 'kid');
    await kid.request({ method: 'pod_event', params: { kind: 'turn_ended', pod_name: 'kid' } });
    await kid.close();
    // Live: shown while the tool still runs, before the model sees them.
    const live = await h.until((s) => texts(s).filter((t) => t.startsWith('notification')).length === 2);
    expect(live.transcript.blocks.some((b) => b.kind === 'tool' && b.state === 'running')).toBe(true);
    expect(screen(h)).toEqual(
      expect.arrayContaining([
        '  ◆ notification: build finished (+2 lines, Ctrl-O shows them)',
        '  ◆ child pod: Pod `kid` finished a turn.',
      ]),
    );
    expect(screen(h, true)).toEqual(
      expect.arrayContaining(['  ◆ notification: build finished', '    │ all 212 tests passed', '    │ coverage 91%']),
    );

    // Once committed, a rebuild from history shows each once.
    await h.until((s) => s.transcript.status === 'idle');
    h.controller.resync();
    await h.until(
      (s) =>
        has(s, 'assistant: noted') &&
        s.transcript.blocks.filter((b) => b.kind === 'notification').every((b) => b.kind === 'notification' && !b.live),
    );
    expect(texts(h.store.getState()).filter((t) => t.startsWith('notification'))).toEqual([
      'notification: build finished\nall 212 tests passed\ncoverage 91%',
      'notification: Pod `kid` finished a turn.',
    ]);
    await c.close();
  });
});
