import { afterEach, describe, expect, it } from '@jest/globals';
import type { Segment } from '../../../core/protocol/index.js';
import { recorder, runEnded, startTestPod, type TestPod } from '../../support/startTestPod.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

const files = {
  'src/a.ts': 'export const a = 1;\n',
  '.yoi/knowledge/style.md': '---\ntitle: Style\n---\nUse tabs.\n',
  '.yoi/workflows/review.md': '---\ndescription: Review\n---\nReview carefully.\n',
};

const cases: [string, string, Segment, string][] = [
  ['yoi:paste', 'paste', { kind: 'paste', id: 1, chars: 5, lines: 1, content: 'hello' }, '[unresolved paste: paste]'],
  ['yoi:file-ref', 'file_ref', { kind: 'file_ref', path: 'src/a.ts' }, '[unresolved file_ref: src/a.ts]'],
  ['yoi:knowledge', 'knowledge_ref', { kind: 'knowledge_ref', slug: 'style' }, '[unresolved knowledge_ref: style]'],
  [
    'yoi:workflow',
    'workflow_invoke',
    { kind: 'workflow_invoke', slug: 'review' },
    '[unresolved workflow_invoke: review]',
  ],
];

describe('each built-in resolver through a running pod', () => {
  it('resolves all four kinds with the defaults', async () => {
    tp = await startTestPod({ files });
    const c = await tp.connect();
    expect(c.welcome?.segment_kinds).toEqual(
      expect.arrayContaining(['text', 'paste', 'file_ref', 'knowledge_ref', 'workflow_invoke']),
    );
    const events = recorder(c);
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: cases.map(([, , s]) => s) } });
    await ended;
    expect(events.filter((e) => e.event === 'alert')).toEqual([]);
    const reply = events.find((e) => e.event === 'text_done');
    const text = reply?.event === 'text_done' ? reply.data.text : '';
    expect(text).toContain('[user] hello');
    expect(text).toContain('[File: src/a.ts]\nexport const a = 1;');
    expect(text).toContain('[Knowledge: style');
    expect(text).toContain('Use tabs.');
    // The workflow is a system instruction for the run, not a history item — and the offline echo
    // provider shows it, so an offline user sees that it was applied.
    const given = tp.pod.controller.history.filter((i) => !(i.type === 'message' && i.role === 'assistant'));
    expect(given.some((i) => i.type === 'message' && i.content[0].text.includes('Review carefully.'))).toBe(false);
    expect(text).toContain('[instruction] [Workflow: review]\nReview carefully.');
    await c.close();
  });

  it.each(cases)(
    'without %s, %s falls back to a placeholder plus an alert, and the run still happens',
    async (plugin, kind, segment, placeholder) => {
      // yoi:mcp resolves workflow_invoke too (`/<server>:<prompt>`, declining other slugs): leave it out with yoi:workflow.
      tp = await startTestPod({
        files,
        config: { disablePlugins: kind === 'workflow_invoke' ? [plugin, 'yoi:mcp'] : [plugin] },
      });
      const c = await tp.connect();
      expect(c.welcome?.segment_kinds).not.toContain(kind);
      const events = recorder(c);
      const ended = runEnded(c);
      await c.request({ method: 'run', params: { input: [{ kind: 'text', content: 'see ' }, segment] } });
      expect(await ended).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
      const alerts = events.filter((e) => e.event === 'alert').map((e) => (e.event === 'alert' ? e.data : undefined));
      expect(alerts).toEqual([
        expect.objectContaining({
          level: 'warn',
          source: 'pod',
          message: expect.stringContaining(`no resolver plugin for ${kind}`),
        }),
      ]);
      const user = tp.pod.controller.history[0];
      expect(user.type === 'message' && user.content[0].text).toBe(`see ${placeholder}`);
      // The typed segment is kept for every client.
      const um = events.find((e) => e.event === 'user_message');
      expect(um?.event === 'user_message' && um.data.segments[1]).toEqual(segment);
      await c.close();
    },
  );

  it('serves completions for @, # and / through list_completions', async () => {
    tp = await startTestPod({ files });
    const c = await tp.connect();
    const file = await c.request({ method: 'list_completions', params: { kind: '@', prefix: 'src/' } });
    expect(file).toMatchObject({
      event: 'completions',
      data: { kind: 'file_ref', prefix: 'src/', items: ['src/a.ts'] },
    });
    const knowledge = await c.request({ method: 'list_completions', params: { kind: 'knowledge_ref', prefix: 'st' } });
    expect(knowledge.event === 'completions' && knowledge.data.items).toEqual(['style']);
    const workflow = await c.request({ method: 'list_completions', params: { kind: '/', prefix: '' } });
    expect(workflow.event === 'completions' && workflow.data.items).toEqual(['review']);
    const none = await c.request({ method: 'list_completions', params: { kind: 'image', prefix: '' } });
    expect(none.event === 'completions' && none.data.items).toEqual([]);
    await c.close();
  });
});
