// The fuzz suite at bench size: every fast-check property of the jest suite (the decoder, the
// framing, every method's params, token pieces, a real pod fed random lines) with its share of
// FUZZ_RUNS cases (default 10⁶; CI runs 10⁴). Prints each property's cases and cases/s, and the
// failures; the goal is none. Runs jest on the TypeScript tests (no build needed).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1_000_000);
const FILES = [
  'test/protocol/codec.test.ts',
  'test/protocol/LineReader.test.ts',
  'test/protocol/json.test.ts',
  'test/core/tokens/countInPieces.test.ts',
  'test/core/pod/randomLines.test.ts',
];
const root = fileURLToPath(new URL('..', import.meta.url));
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-fuzz-')), 'report.jsonl');
const started = Date.now();
const r = spawnSync(
  process.execPath,
  ['--experimental-vm-modules', '--no-warnings', 'node_modules/jest/bin/jest.js', '--testTimeout=7200000', ...FILES],
  {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, YOI_FUZZ_RUNS: String(RUNS), YOI_FUZZ_REPORT: report },
  },
);
if (r.status !== 0) process.stderr.write(r.stderr);
const rows = fs.existsSync(report)
  ? fs
      .readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
let cases = 0;
let ms = 0;
for (const row of rows) {
  cases += row.runs;
  ms += row.ms;
  console.log(
    `  ${row.name}: ${row.runs} cases, ${Math.round((row.runs * 1000) / Math.max(1, row.ms))} cases/s${row.failure ? ` — FAILED: ${row.failure}` : ''}`,
  );
}
const failures =
  rows.filter((row) => row.failure).length + (r.status === 0 ? 0 : rows.some((row) => row.failure) ? 0 : 1);
const wall = (Date.now() - started) / 1000;
console.log(
  `fuzz: failures ${failures} (goal 0) ${failures === 0 ? 'OK' : 'MISSED'} — ${cases} cases in ${rows.length} properties, ${Math.round((cases * 1000) / Math.max(1, ms))} cases/s (${wall.toFixed(0)} s wall)`,
);
process.exitCode = failures === 0 ? 0 : 1;
