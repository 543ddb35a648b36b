// A minimal line client for the benchmarks: resolves promises on lines containing a marker,
// without decoding JSON (so the client's own cost is the same for every baseline). With
// `{ bytes: true }` lines stay Buffers and markers are found in the bytes: for a client in the
// process of the pod it observes, where decoding every line is work on the pod's thread (and
// garbage for its collector) that a real client does in its own process.
import net from 'node:net';

export async function lineSocket(path, { bytes = false } = {}) {
  const s = net.connect(path);
  await new Promise((r, j) => s.once('connect', r).once('error', j));
  let waiters = [];
  const listeners = new Set();
  const dispatch = (line) => {
    for (const l of listeners) l(line);
    const now = process.hrtime.bigint();
    waiters = waiters.filter(
      (w) => !(line.includes(w.marker) && (w.resolve(w.withLine ? { at: now, line } : now), true)),
    );
  };
  if (bytes) {
    let carry = []; // the pieces of a line that began in an earlier chunk
    s.on('data', (d) => {
      let start = 0;
      for (let nl = d.indexOf(10); nl !== -1; nl = d.indexOf(10, start)) {
        const piece = d.subarray(start, nl);
        start = nl + 1;
        if (carry.length === 0) dispatch(piece);
        else {
          carry.push(piece);
          const line = Buffer.concat(carry);
          carry = [];
          dispatch(line);
        }
      }
      if (start < d.length) carry.push(d.subarray(start));
    });
  } else {
    let carry = '';
    s.setEncoding('utf8');
    s.on('data', (d) => {
      const lines = (carry + d).split('\n');
      carry = lines.pop();
      for (const line of lines) dispatch(line);
    });
  }
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
