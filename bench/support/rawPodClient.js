// The baseline of bench/pod-commands.js: the least a client of a running pod can do, as its own
// process — connect, `hello`, one request, print the first reply byte (for `run`: the first
// text_delta's text) and, for `run`, read on until `run_end` so the pod is idle again; `run-all`
// prints every text_delta's text as it arrives.
// argv: <socket> run|run-all|get_history|cancel
import net from 'node:net';

const [socketPath, method] = process.argv.slice(2);
const s = net.connect(socketPath);
s.setEncoding('utf8');
s.write('{"method":"hello","params":{"protocol_version":2,"client":"bench-raw"}}\n');
const run = method === 'run' || method === 'run-all';
s.write(
  run
    ? '{"method":"run","params":{"input":[{"kind":"text","content":"hi"}]},"request_id":"r"}\n'
    : `{"method":"${method}","request_id":"r"}\n`,
);
let carry = '';
let printed = false;
s.on('data', (d) => {
  const lines = (carry + d).split('\n');
  carry = lines.pop();
  for (const line of lines) {
    if (run) {
      if ((!printed || method === 'run-all') && line.includes('"text_delta"')) {
        process.stdout.write(JSON.parse(line).data.text);
        printed = true;
      }
      if (line.includes('"run_end"')) s.end();
    } else if (line.includes('"request_id":"r"')) {
      process.stdout.write(`${line}\n`);
      s.end();
    }
  }
});
