// The table bench/peers.js prints: one row per measurement, one column per tool, each cell the
// median and the range (min–max) of its runs.
const MiB = 1024 * 1024;

export const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : NaN);

const cell = (xs, fmt) => {
  if (!xs?.length) return '—';
  const s = [...xs].sort((a, b) => a - b);
  return `${fmt(median(s))} (${fmt(s[0])}–${fmt(s.at(-1))})`;
};
const ms = (x) => x.toFixed(0);
const ratio = (x) => `${x.toFixed(2)}x`;
const mib = (x) => (x / MiB).toFixed(1);

/** `--version`: the ratio of the medians to `node -e 0`'s, then the median and range in ms. */
export const versionCell = (xs, node) => (xs?.length ? `${ratio(median(xs) / median(node))}: ${cell(xs, ms)} ms` : '—');

const ROWS = [
  ['version', '`--version` (process start → exit), ratio of the medians to `node -e 0`: ms'],
  ['first', 'one prompt, process start → first reply byte, ms (yoi: `send` to a running pod; peers: one-shot)', ms],
  ['raw', '… a raw socket client to the same pod, ms', ms],
  ['cold', 'cold: process start → first reply byte, ms (yoi: `pod start` + `send`; peers: one-shot)', ms],
  ['ready', '… of which `pod start` → `listening`, ms', ms],
  ['drain', '2,000-chunk reply, server first byte → last byte on stdout, ms', ms],
  ['drainFirst', '… server first byte → first byte on stdout (printing as it arrives, or at the end), ms', ms],
  [
    'idle',
    'idle RSS of the long-running form, MiB (yoi pod, Codex app-server, Claude Code stream-json, opencode serve, pi rpc)',
    mib,
  ],
  ['peak', 'peak RSS during that reply, whole process tree, MiB', mib],
];

export function printTable(results, tools, { runs, idleRuns }) {
  const node = results.get('node|node -e 0');
  console.log(`\nmedians (min–max) of ${runs} runs (idle RSS: ${idleRuns}); node -e 0: ${cell(node, ms)} ms\n`);
  console.log(`| path | ${tools.join(' | ')} |`);
  console.log(`|---|${tools.map(() => '---').join('|')}|`);
  for (const [key, label, fmt] of ROWS) {
    const value = (t) => (fmt ? cell(results.get(`${key}|${t}`), fmt) : versionCell(results.get(`${key}|${t}`), node));
    console.log(`| ${label} | ${tools.map(value).join(' | ')} |`);
  }
}
