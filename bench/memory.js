// Resident memory of a pod process: idle, and with 64 idle clients connected (v2). Goal ≤ 120 MB
// with 64 clients. The baseline printed alongside is `node -e` holding a net server.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { report } from './measure.js';
import { startPeerLlmServer } from './support/peerLlmServer.js';
import { rssOf, startPodProcess } from './support/startPodProcess.js';

const MB = 1024 * 1024;
const settle = () => new Promise((r) => setTimeout(r, 1500));

const bare = spawn(process.execPath, ['-e', "require('net').createServer().listen(0,()=>console.log('up'))"], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise((r) => bare.stdout.once('data', r));
await settle();
const bareRss = rssOf(bare.pid);
bare.kill();

const pod = await startPodProcess();
await settle();
const idle = rssOf(pod.pid);
const sockets = [];
for (let i = 0; i < 64; i++) {
  const s = net.connect(pod.socket);
  await new Promise((r) => s.once('connect', r));
  s.write('{"method":"hello","params":{"protocol_version":2}}\n');
  s.on('data', () => undefined);
  sockets.push(s);
}
await settle();
const with64 = rssOf(pod.pid);
for (const s of sockets) s.destroy();
await pod.stop();

console.log(`memory: bare node net server ${(bareRss / MB).toFixed(1)} MB; idle pod ${(idle / MB).toFixed(1)} MB`);
report('memory: pod RSS with 64 idle clients vs 120 MB', with64 / (120 * MB), 1, {
  higherIsBetter: false,
  detail: `${(with64 / MB).toFixed(1)} MB`,
});

/**
 * Runs one reply on `pod` for a client that reads it, sampling the pod's RSS every 5 ms from
 * `idle`; resolves at `run_end` with the peak and the client (still connected).
 */
async function runSampled(pod, idle) {
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pod.pid))), 5);
  const client = net.connect(pod.socket);
  await new Promise((r) => client.once('connect', r));
  client.write(
    '{"method":"hello","params":{"protocol_version":2}}\n{"method":"run","params":{"input":[{"kind":"text","content":"go"}]}}\n',
  );
  await new Promise((resolve) => {
    let tail = '';
    client.on('data', (d) => {
      tail = (tail + d).slice(-4096);
      if (tail.includes('"run_end"')) resolve();
    });
  });
  clearInterval(sampler);
  return { peak: Math.max(peak, rssOf(pod.pid)), client };
}

// Idle RSS on its own (goal ≤ 60 MiB), and the peak while a 2,000-chunk reply streams to a client
// that reads it (scripted provider; RSS sampled every 5 ms; goal ≤ 1.3x the same pod idle).
const MiB = 1024 * 1024;
const chunks = Array.from({ length: 2000 }, (_, i) => `tok${i} `);
const scripted = await startPodProcess({
  name: 'mem',
  files: {
    's.json': JSON.stringify([{ chunks }]),
    'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
  },
});
await settle();
const idleScripted = rssOf(scripted.pid);
const { peak, client } = await runSampled(scripted, idleScripted);
client.destroy();
await scripted.stop();
report('memory: idle pod RSS vs 60 MiB', idle / (60 * MiB), 1, {
  higherIsBetter: false,
  detail: `${(idle / MiB).toFixed(1)} MiB`,
});
report('memory: peak RSS during a 2,000-chunk reply vs idle', peak / idleScripted, 1.3, {
  higherIsBetter: false,
  detail: `${(peak / MiB).toFixed(1)} MiB vs ${(idleScripted / MiB).toFixed(1)} MiB idle`,
});

// For information: a pod as users run one, on an HTTP provider (openai-compatible, against the
// local fake server of bench/peers.js): idle once listening (its SDK and `fetch` loaded), the peak
// while a 2,000-chunk reply streams, and idle again after it (Node's HTTP parser compiled), after
// the same settling time as above and 10 s later.
const llm = await startPeerLlmServer();
llm.setReply(chunks);
const http = await startPodProcess({
  name: 'mem-http',
  files: {
    'yoi.config.json': JSON.stringify({
      model: { provider: 'openai-compatible', baseURL: `${llm.origin}/v1`, model: 'fake-model', maxRetries: 0 },
    }),
  },
});
await settle();
const idleHttp = rssOf(http.pid);
const { peak: peakHttp, client: httpClient } = await runSampled(http, idleHttp);
await settle();
const afterHttp = rssOf(http.pid);
// V8's memory reducer gives back what it can ~8 s after the pod went quiet.
await new Promise((r) => setTimeout(r, 10_000));
const settledHttp = rssOf(http.pid);
httpClient.destroy();
await http.stop();
await llm.close();
console.log(
  `memory (info): a pod on an HTTP provider: idle ${(idleHttp / MiB).toFixed(1)} MiB, peak during a 2,000-chunk reply ${(peakHttp / MiB).toFixed(1)} MiB (${(peakHttp / idleHttp).toFixed(2)}x), idle after it ${(afterHttp / MiB).toFixed(1)} MiB, 10 s later ${(settledHttp / MiB).toFixed(1)} MiB (${(settledHttp / (60 * MiB)).toFixed(2)} of 60 MiB)`,
);
