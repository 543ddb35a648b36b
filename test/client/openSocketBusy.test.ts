import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { openSocket } from '../../client/openSocket.js';

// Found with 1,000 clients connecting to one pod on a loaded machine: a Unix socket whose listen
// backlog is full answers connect() with EAGAIN at once (TCP would wait), and the client gave up.
// Here a server with a backlog of 1 is kept from accepting (a busy loop until a file appears).

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const SERVER = `
const net = require('node:net'), fs = require('node:fs');
const [sock, flag] = process.argv.slice(1);
const server = net.createServer((c) => c.end());
server.listen({ path: sock, backlog: 1 }, () => {
  console.log('up');
  while (!fs.existsSync(flag)) {} // busy: accepts nothing until the flag file appears
});`;

describe('openSocket on a pod too busy to accept', () => {
  it('tries again on EAGAIN and connects once the pod accepts', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-busy-'));
    const sock = path.join(dir, 'sock');
    const flag = path.join(dir, 'go');
    const server = spawn(process.execPath, ['-e', SERVER, sock, flag], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(
      () => server.kill('SIGKILL'),
      () => fs.rmSync(dir, { recursive: true, force: true }),
    );
    await new Promise((r) => server.stdout.once('data', r));

    // Plain connects show the condition: with the backlog full, the kernel refuses with EAGAIN.
    const plain = await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<string>((resolve) => {
            const s = net.connect(sock);
            cleanups.push(() => s.destroy());
            s.once('connect', () => resolve('connected'));
            s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
          }),
      ),
    );
    expect(plain).toContain('EAGAIN');

    const opened = Array.from({ length: 10 }, () => openSocket(sock, 60_000));
    // Every attempt is under way (and refused) before the server is let go: a turn of the loop.
    await new Promise((r) => setImmediate(r));
    fs.writeFileSync(flag, '');
    const sockets = await Promise.all(opened);
    for (const s of sockets) s.destroy();
    expect(sockets).toHaveLength(10);
  }, 90_000);
});
