import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import type { Event } from '../../../core/protocol/index.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { recorder, runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

const scripted = (script: unknown[], files: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  files: { ...files, 's.json': JSON.stringify(script) },
  config: { model: { provider: 'scripted', script: 's.json' }, ...extra },
});
const results = (events: Event[]) =>
  events
    .filter((e) => e.event === 'tool_result')
    .map((e) => e.data as { id: string; summary: string; output?: string; is_error: boolean });

async function run(tp: TestPod, input: string) {
  const c = await tp.connect();
  const events = recorder(c);
  const ended = runEnded(c);
  await c.request({ method: 'run', params: { input: [text(input)] } });
  const end = await ended;
  await c.close();
  return { events, end };
}

describe('the file tools in a pod', () => {
  it('Read then Edit in a tool loop; long output is cut at a character boundary with a marker and an alert', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `ligne ${i} — été 🌍`).join('\n') + '\n';
    tp = await startTestPod({
      ...scripted(
        [
          {
            tool_calls: [
              { name: 'Read', arguments: { file_path: 'doc.txt' } },
              { name: 'Glob', arguments: { pattern: '*.txt' } },
            ],
          },
          {
            tool_calls: [
              { name: 'Edit', arguments: { file_path: 'doc.txt', old_string: 'ligne 0 ', new_string: 'LIGNE ZÉRO ' } },
            ],
          },
          { text: 'edited' },
        ],
        { 'doc.txt': long },
        { limits: { toolOutputBytes: 1000 } },
      ),
    });
    const doc = path.join(fs.realpathSync(tp.dir), 'doc.txt');
    const { events, end } = await run(tp, 'fix the first line');
    expect(end).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    const [read, glob, edit] = results(events);
    expect(read).toMatchObject({ summary: `Read 200 lines from ${doc}`, is_error: false });
    expect(Buffer.byteLength(read.output!)).toBeLessThanOrEqual(1000);
    expect(read.output).toMatch(/^ {5}1\tligne 0 — été 🌍\n/);
    expect(read.output).toMatch(/\n\n\[truncated: \d+ bytes dropped, refine your query\]$/);
    expect(read.output).not.toContain('\ufffd'); // no character was split
    expect(glob).toEqual({ id: 'call_2', summary: 'Found 1 file matching *.txt', output: doc, is_error: false });
    expect(edit).toMatchObject({ summary: `Edited ${doc} (1 replacement)`, is_error: false });
    expect(fs.readFileSync(doc, 'utf8').startsWith('LIGNE ZÉRO — été 🌍\n')).toBe(true);
    const alerts = events.filter((e) => e.event === 'alert').map((e) => e.event === 'alert' && e.data.message);
    expect(alerts).toEqual([
      expect.stringMatching(/^tool `Read` output truncated from \d+ to \d+ bytes \(limit 1000\)$/),
    ]);
    // The model's history holds the cut output too, and the pod remembers the file.
    const item = tp.pod.controller.history.find((i) => i.type === 'tool_result' && i.call_id === 'call_1');
    expect(item).toMatchObject({ content: read.output, is_error: false });
    expect(tp.pod.info.services.files?.recent(5)).toEqual([doc]);
  });

  it('a beforeToolCall policy can refuse or skip a call; errors reach the model with is_error', async () => {
    const policy = definePlugin({
      name: 'test:policy',
      apply(host) {
        host.hooks.beforeToolCall.tapPromise('test:policy', async (call) => {
          if (call.name === 'Write') return { action: 'refuse', reason: 'writes need approval' };
          if (call.name === 'Glob') return { action: 'skip', reason: 'not now' };
          return undefined;
        });
      },
    });
    tp = await startTestPod({
      ...scripted(
        [
          {
            tool_calls: [
              { name: 'Write', arguments: { file_path: 'new.txt', content: 'x' } },
              { name: 'Glob', arguments: { pattern: '*' } },
              { name: 'Read', arguments: { file_path: '/etc/hostname' } },
            ],
          },
          { text: 'ok' },
        ],
        {},
      ),
      plugins: [...defaultPlugins(), policy()],
    });
    const { events } = await run(tp, 'go');
    expect(results(events)).toEqual([
      { id: 'call_1', summary: 'Refused: writes need approval', is_error: true },
      { id: 'call_2', summary: 'Skipped: not now', is_error: false },
      { id: 'call_3', summary: "cannot read /etc/hostname: outside the pod's scope", is_error: true },
    ]);
    expect(fs.existsSync(path.join(tp.dir, 'new.txt'))).toBe(false);
    expect(
      tp.pod.controller.history
        .filter((i) => i.type === 'tool_result')
        .map((i) => i.type === 'tool_result' && i.is_error),
    ).toEqual([true, false, true]);
  });
});
