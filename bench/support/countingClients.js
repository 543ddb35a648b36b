// Child process for the benchmarks: opens N connections to a socket and counts `text_delta`
// lines on each, without decoding (the same cost for the pod and for the raw baseline).
// argv: <socket | ws://url> <clients> <target deltas per client> [--v2] [--stalled K]
// (a ws:// url: a WebSocket handshake with the token from BENCH_TOKEN, `hello` sent as a masked
// text frame, then the server's frames counted in the TCP bytes as they come, like the socket's
// lines: each frame holds one line, and a 2–10 byte frame header never holds the needle, so
// both transports cost the counting side the same and the ratio measures the pod)
// stdout: "ready" once connected (and greeted), then "done <ms since go> <lagged>" when every
// reading client has seen <target> deltas, or the run's end (a client that lost deltas to
// `lagged` sees `run_end` first: it counts as done, and the line says how many were short).
// stdin: a line "go" starts the clock.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { Sender } from 'ws';

const [socketPath, n, target] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const v2 = process.argv.includes('--v2');
const stalledIdx = process.argv.indexOf('--stalled');
const stalled = stalledIdx > 0 ? Number(process.argv[stalledIdx + 1]) : 0;
const NEEDLE = Buffer.from('"text_delta"');
const END = Buffer.from('"run_end"');

const overWs = /^wss?:\/\//.test(socketPath);

/** A socket-like face for a WebSocket client: `connect`, `data` (the raw TCP bytes), `write` of one line as one masked frame, `pause`. */
function connectWs(url) {
  const face = new EventEmitter();
  const { hostname, port } = new URL(url);
  const req = http.request({
    host: hostname,
    port,
    path: '/',
    headers: {
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': crypto.randomBytes(16).toString('base64'),
      authorization: `Bearer ${process.env.BENCH_TOKEN}`,
    },
  });
  req.once('upgrade', (_res, socket, head) => {
    socket.setNoDelay(true);
    face.write = (line) =>
      socket.write(
        Buffer.concat(
          Sender.frame(Buffer.from(line.trimEnd()), { fin: true, opcode: 1, mask: true, readOnly: false, rsv1: false }),
        ),
      );
    face.pause = () => socket.pause();
    socket.on('data', (d) => face.emit('data', d));
    face.emit('connect');
    if (head.length > 0) face.emit('data', head);
  });
  req.once('response', (res) => {
    console.error(`ws upgrade refused: HTTP ${res.statusCode}`);
    process.exit(1);
  });
  req.end();
  return face;
}

let go = 0n;
let remaining = n;
/** Deltas the reading clients never got (lost to `lagged`), summed. */
let short = 0;
const sockets = [];
for (let i = 0; i < n + stalled; i++) {
  const s = overWs ? connectWs(socketPath) : net.connect(socketPath);
  sockets.push(s);
  if (i >= n) {
    // A client that never reads: the kernel buffer fills and the server must cope.
    s.once('connect', () => {
      if (v2) s.write('{"method":"hello","params":{"protocol_version":2}}\n');
      s.pause();
    });
    continue;
  }
  let count = 0;
  let carry = Buffer.alloc(0);
  s.on('data', (chunk) => {
    const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    let at = 0;
    for (;;) {
      const j = buf.indexOf(NEEDLE, at);
      if (j < 0) break;
      count++;
      at = j + NEEDLE.length;
    }
    const ended = go && count < target && buf.indexOf(END, at) >= 0;
    carry = buf.subarray(Math.max(at, buf.length - NEEDLE.length + 1));
    if ((count >= target || ended) && count !== Infinity && go) {
      short += Math.max(0, target - count);
      count = Infinity;
      if (--remaining === 0) process.stdout.write(`done ${Number(process.hrtime.bigint() - go) / 1e6} ${short}\n`);
    }
  });
  s.once('connect', () => {
    if (v2) s.write('{"method":"hello","params":{"protocol_version":2}}\n');
  });
}
let connected = 0;
for (const s of sockets)
  s.once('connect', () => ++connected === sockets.length && setTimeout(() => process.stdout.write('ready\n'), 100));
process.stdin.on('data', (d) => {
  if (d.toString().includes('go')) go = process.hrtime.bigint();
});
