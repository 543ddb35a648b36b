// Start-up time of the built CLI against a bare `node -e 0`, measured in the same run (median of
// repeated child processes). ratio = yoi time / node time; goals: `--version` ≤ 1.5x, `--help` ≤ 3x.
// Run after `npm run build`.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { medianMs, report } from './measure.js';

const bin = fileURLToPath(new URL('../bin/run.js', import.meta.url));
// Piped stdout, as in scripts; a TTY narrower than 80 columns would make --help take oclif's path.
const spawn = (args) => () => execFileSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
const options = { runs: 15, warmup: 3 };

const node = await medianMs(spawn(['-e', '0']), options);
let ok = true;
for (const [name, args, goal] of [
  ['cli-startup --version', ['--version'], 1.5],
  ['cli-startup --help', ['--help'], 3],
]) {
  const ms = await medianMs(spawn([bin, ...args]), options);
  ok = report(name, ms / node, goal, { detail: `${ms.toFixed(1)} ms vs node -e 0 ${node.toFixed(1)} ms` }) && ok;
}

// For information, no goal: help through oclif itself (what the pre-rendered help saves), and a
// command that loads the config and applies the plugins.
const viaOclif = { ...process.env, OCLIF_COLUMNS: '80' };
for (const [name, args, env] of [
  ['--help through oclif', ['--help'], viaOclif],
  ['plugins --json', ['plugins', '--json'], process.env],
]) {
  const ms = await medianMs(
    () => execFileSync(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env }),
    options,
  );
  console.log(`cli-startup ${name}: ratio ${(ms / node).toFixed(2)} (info) — ${ms.toFixed(1)} ms`);
}
process.exitCode = ok ? 0 : 1;
