// Resident memory of a pod process: idle, and with 64 idle clients connected (v2). Goal ≤ 120 MB
// with 64 clients. The baseline printed alongside is `node -e` holding a net server.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { report } from './measure.js';
import { rssOf, startPodProcess } from './support/startPodProcess.js';

const MB = 1024 * 1024;
const settle = () => new Promise((r) => setTimeout(r, 1500));

const bare = spawn(process.execPath, ['-e', "require('net').createServer().listen(0,()=>console.log('up'))"], { stdio: ['ignore', 'pipe', 'inherit'] });
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
report('memory: pod RSS with 64 idle clients vs 120 MB', with64 / (120 * MB), 1, { higherIsBetter: false, detail: `${(with64 / MB).toFixed(1)} MB` });
