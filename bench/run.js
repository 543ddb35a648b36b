// `npm run bench`: runs every benchmark (or those named on the command line) one after another
// against the built dist/, and lists the goals each met or missed. Benchmarks are not tests:
// their ratios depend on the machine's load; see bench/README.md for recorded numbers. The soak
// (30 minutes by default) and the peers (bench/peers.js, YOI_BENCH_PEERS=1) run only when named.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const all = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.js') && !['run.js', 'measure.js'].includes(f))
  .map((f) => f.slice(0, -3))
  .sort();
// Run only when named: the soak (30 minutes), the peers (installs other CLIs from npm, opt-in).
const ON_REQUEST = ['soak', 'peers'];
const wanted = process.argv.slice(2);
const names = wanted.length ? wanted : all.filter((n) => !ON_REQUEST.includes(n));
const unknown = names.filter((n) => !all.includes(n));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')} (known: ${all.join(', ')})`);
  process.exit(2);
}
const missed = [];
for (const name of names) {
  console.log(`\n# ${name}`);
  const r = spawnSync(process.execPath, [`${dir}${name}.js`], { stdio: 'inherit' });
  if (r.status !== 0) missed.push(name);
}
console.log(missed.length ? `\nmissed or failed: ${missed.join(', ')}` : '\nall goals met');
process.exitCode = missed.length ? 1 : 0;
