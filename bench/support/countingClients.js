// Child process for the benchmarks: opens N connections to a socket and counts `text_delta`
// lines on each, without decoding (the same cost for the pod and for the raw baseline).
// argv: <socket | ws://url> <clients> <target deltas per client> [--v2] [--stalled K]
// (a ws:// url connects with the `ws` package, token from BENCH_TOKEN, one message per frame)
// stdout: "ready" once connected (and greeted), then "done <ms since go>" when every reading
// client has seen <target> deltas. stdin: a line "go" starts the clock.
import net from 'node:net';
import WebSocket from 'ws';

const [socketPath, n, target] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const v2 = process.argv.includes('--v2');
const stalledIdx = process.argv.indexOf('--stalled');
const stalled = stalledIdx > 0 ? Number(process.argv[stalledIdx + 1]) : 0;
const NEEDLE = Buffer.from('"text_delta"');

const overWs = /^wss?:\/\//.test(socketPath);

/** A socket-like face for a WebSocket: `connect`, `data` per message, `write` of one line, `pause`. */
function connectWs(url) {
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${process.env.BENCH_TOKEN}` }, perMessageDeflate: false });
  const face = {
    once: (event, fn) => (event === 'connect' ? ws.once('open', fn) : ws.once(event, fn)),
    on: (event, fn) => (event === 'data' ? ws.on('message', fn) : ws.on(event, fn)),
    write: (line) => ws.send(line.trimEnd()),
    pause: () => ws.pause(),
  };
  return face;
}

let go = 0n;
let remaining = n;
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
    carry = buf.subarray(Math.max(at, buf.length - NEEDLE.length + 1));
    if (count >= target && count - target < 1 && go) {
      count = Infinity;
      if (--remaining === 0) process.stdout.write(`done ${Number(process.hrtime.bigint() - go) / 1e6}\n`);
    }
  });
  s.once('connect', () => {
    if (v2) s.write('{"method":"hello","params":{"protocol_version":2}}\n');
  });
}
let connected = 0;
for (const s of sockets) s.once('connect', () => ++connected === sockets.length && setTimeout(() => process.stdout.write('ready\n'), 100));
process.stdin.on('data', (d) => {
  if (d.toString().includes('go')) go = process.hrtime.bigint();
});
