// Draining a long reply through `yoi send`: a 2,000-chunk reply (scripted provider, the pod in
// its own process), from the first byte on the client's stdout to its last (the process closing
// its stdout), for `yoi send` against the raw client (bench/support/rawPodClient.js `run-all`,
// which writes each text_delta's text as it arrives), interleaved in the same run. For
// information (its goal is against a peer's CLI: see peers in README).
// STREAM_SEND_RUNS (default 9).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startPodProcess } from './support/startPodProcess.js';

const RUNS = Number(process.env.STREAM_SEND_RUNS ?? 9);
const WARMUP = 2;
const bin = fileURLToPath(new URL('../bin/run.js', import.meta.url));
const raw = fileURLToPath(new URL('support/rawPodClient.js', import.meta.url));
const chunks = Array.from({ length: 2000 }, (_, i) => `tok${i} `);
// One reply per run: the script is consumed one entry per request.
const script = Array.from({ length: 2 * (WARMUP + RUNS) }, () => ({ chunks }));
const pod = await startPodProcess({
  name: 'stream',
  files: {
    's.json': JSON.stringify(script),
    'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
  },
});
const env = { ...process.env, YOI_RUNTIME_DIR: `${pod.dir}/run` };

/** ms from the first stdout byte to the end of stdout, and the bytes seen. */
const drain = (args) =>
  new Promise((resolve, reject) => {
    let first;
    let bytes = 0;
    const child = spawn(process.execPath, args, { cwd: pod.dir, env, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', (d) => {
      first ??= performance.now();
      bytes += d.length;
    });
    child.stdout.once('end', () => resolve({ ms: performance.now() - first, bytes }));
    child.once('error', reject);
  });
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[Math.floor(s.length / 2)].toFixed(1)} ms (${s[0].toFixed(0)}–${s.at(-1).toFixed(0)})`;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const y = [];
const r = [];
try {
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const a = await drain([bin, 'send', 'go', '--pod', 'stream']);
    const b = await drain([raw, pod.socket, 'run-all']);
    if (a.bytes < 2000 * 6 || b.bytes < 2000 * 6)
      throw new Error(`a reply was cut short (${a.bytes} / ${b.bytes} bytes)`);
    if (i >= WARMUP) {
      y.push(a.ms);
      r.push(b.ms);
    }
  }
} finally {
  await pod.stop();
}
console.log(
  `stream-send: ratio ${(median(y) / median(r)).toFixed(2)} (info) — 2,000 chunks, first → last stdout byte: yoi send ${stats(y)}, raw client ${stats(r)}`,
);
