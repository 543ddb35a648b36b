// A minimal line client for the benchmarks: resolves promises on lines containing a marker,
// without decoding JSON (so the client's own cost is the same for every baseline).
import net from 'node:net';

export async function lineSocket(path) {
  const s = net.connect(path);
  await new Promise((r, j) => s.once('connect', r).once('error', j));
  let waiters = [];
  const listeners = new Set();
  let carry = '';
  s.setEncoding('utf8');
  s.on('data', (d) => {
    const lines = (carry + d).split('\n');
    carry = lines.pop();
    for (const line of lines) {
      for (const l of listeners) l(line);
      const now = process.hrtime.bigint();
      waiters = waiters.filter(
        (w) => !(line.includes(w.marker) && (w.resolve(w.withLine ? { at: now, line } : now), true)),
      );
    }
  });
  return {
    socket: s,
    write: (line) => s.write(`${line}\n`),
    /** Resolves with the hrtime at which a line containing `marker` arrived. */
    next: (marker) => new Promise((resolve) => waiters.push({ marker, resolve })),
    /** Likewise, with the line: `{ at, line }`. */
    nextLine: (marker) => new Promise((resolve) => waiters.push({ marker, resolve, withLine: true })),
    /** Calls `listener` with every line from now on; returns a function that stops it. */
    onLine: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => s.destroy(),
  };
}
