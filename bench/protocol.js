// Decode+validate and encode of a realistic event mix, against bare JSON.parse/JSON.stringify of
// the same lines in the same run, in interleaved rounds; ratio = raw time / yoi time of the
// median round (goal ≥ 0.5: validation costs at most 2x raw JSON).
import { decodeEventLine, decodeMethodLine, encodeEvent, encodeMethod } from '../dist/core/protocol/index.js';
import { performance } from 'node:perf_hooks';
import { report } from './measure.js';

const words = 'the quick brown fox jumps over the lazy dog while reading src/index.ts line 42 of 1.5 KiB'.split(' ');
const source = Array.from(
  { length: 200 },
  (_, i) =>
    `${String(i + 1).padStart(6)}\tconst value${i} = compute(${i} * 1.5, "item-${i}"); // ${words[i % words.length]}`,
).join('\n');
const output = source.slice(0, 4096);

const lines = [];
for (let i = 0; i < 2000; i++) {
  const r = i % 100;
  if (r < 90)
    lines.push(['event', encodeEvent({ event: 'text_delta', data: { text: `${words[i % words.length]} ` } })]);
  else if (r < 95)
    lines.push([
      'event',
      encodeEvent({
        event: 'tool_result',
        data: { id: `call_${i}`, summary: 'Read 200 line(s) from /src/a.ts', output, is_error: false },
      }),
    ]);
  else
    lines.push([
      'method',
      encodeMethod({
        method: 'run',
        params: {
          input: [
            { kind: 'text', content: 'please review ' },
            {
              kind: 'paste',
              id: 1,
              chars: 120,
              lines: 3,
              content: 'line one\nline two\nline three with some more text to make it realistic',
            },
            { kind: 'file_ref', path: 'src/main.ts' },
          ],
        },
      }),
    ]);
}
const bytes = lines.reduce((n, [, l]) => n + Buffer.byteLength(l), 0);

const rawPass = () => {
  for (const [, l] of lines) JSON.stringify(JSON.parse(l));
};
const yoiPass = () => {
  for (const [kind, l] of lines) {
    if (kind === 'event') {
      const d = decodeEventLine(l);
      if (!d.ok) throw new Error(d.error);
      encodeEvent(d.value);
    } else {
      const d = decodeMethodLine(l);
      if (!d.ok) throw new Error(d.error);
      encodeMethod(d.value);
    }
  }
};
// Interleaved rounds (both sides see the same GC and CPU weather); the median round decides.
const timed = (fn) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};
for (let i = 0; i < 20; i++) {
  rawPass();
  yoiPass();
}
const rounds = [];
for (let i = 0; i < 61; i++) {
  const a = i % 2 ? timed(rawPass) : undefined;
  const b = timed(yoiPass);
  const c = a ?? timed(rawPass);
  rounds.push({ raw: c, yoi: b, ratio: c / b });
}
rounds.sort((x, y) => x.ratio - y.ratio);
const mid = rounds[Math.floor(rounds.length / 2)];
const raw = mid.raw;
const yoi = mid.yoi;

const perLine = (ms) => `${((ms * 1000) / lines.length).toFixed(2)} µs/line`;
report('protocol decode+validate+encode', mid.ratio, 0.5, {
  higherIsBetter: true,
  detail: `${lines.length} lines, ${(bytes / 1024).toFixed(0)} KiB; raw JSON ${perLine(raw)}, yoi ${perLine(yoi)}`,
});
