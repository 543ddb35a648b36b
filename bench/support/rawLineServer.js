// The baseline of the fan-out benchmarks: a bare `net` server that writes pre-serialized lines
// to every connected client, nothing else.
import net from 'node:net';

export async function rawLineServer(socketPath) {
  const clients = new Set();
  const server = net.createServer((s) => {
    clients.add(s);
    s.on('error', () => s.destroy());
    s.on('close', () => clients.delete(s));
    s.on('data', () => undefined);
  });
  await new Promise((r) => server.listen(socketPath, r));
  return {
    clients,
    /** Writes every line to every client, yielding to the event loop now and then like a stream. */
    async broadcast(lines) {
      for (let i = 0; i < lines.length; i++) {
        for (const c of clients) c.write(lines[i]);
        if (i % 64 === 63) await new Promise((r) => setImmediate(r));
      }
    },
    close: () =>
      new Promise((r) => {
        for (const c of clients) c.destroy();
        server.close(r);
      }),
  };
}
