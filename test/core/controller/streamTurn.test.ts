import { afterEach, expect, it } from '@jest/globals';
import { recorder, runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

it("a long reply split by a tool call: every delta, each block's text_done and the history hold the exact text", async () => {
  // Many more deltas than are joined into one piece of the turn's text, with an emoji split
  // between two chunks (its halves never go out alone) and blocks on both sides of a tool call.
  const first = Array.from({ length: 1000 }, (_, i) => `w${i} `);
  first[600] = `${first[600]}\ud83d`;
  first[601] = `\ude00${first[601]}`;
  const second = Array.from({ length: 700 }, (_, i) => `v${i} `);
  const script = [
    { chunks: first, tool_calls: [{ name: 'Glob', arguments: { pattern: '*.md' } }] },
    { chunks: second },
  ];
  tp = await startTestPod({
    files: { 's.json': JSON.stringify(script), 'a.md': 'A' },
    config: { model: { provider: 'scripted', script: 's.json' } },
  });
  const client = await tp.connect();
  const events = recorder(client);
  const ended = runEnded(client, 60_000);
  await client.request({ method: 'run', params: { input: [text('go')] } });
  await ended;
  const deltas = events.flatMap((e) => (e.event === 'text_delta' ? [e.data.text] : []));
  expect(deltas.join('')).toBe(first.join('') + second.join(''));
  expect(deltas.some((d) => /^[\udc00-\udfff]|[\ud800-\udbff]$/.test(d))).toBe(false);
  expect(events.flatMap((e) => (e.event === 'text_done' ? [e.data.text] : []))).toEqual([
    first.join(''),
    second.join(''),
  ]);
  const history = await client.request({ method: 'get_history' });
  type Item = { type: string; role?: string; content?: { text: string }[] };
  const items = (history.event === 'history' ? history.data.items : []) as Item[];
  const replies = items.filter((i) => i.type === 'message' && i.role === 'assistant');
  expect(replies.map((m) => (m.content ?? []).map((p) => p.text).join(''))).toEqual([first.join(''), second.join('')]);
  await client.close();
});
