import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PodClient } from '../../../client/PodClient.js';
import { isSocketLive, readStatusFile } from '../../../core/pod/podFiles.js';
import {
  checkOwnDir,
  checkOwnSocket,
  ensureOwnDir,
  openOwnFile,
  readOwnFile,
  MAX_OWN_FILE_BYTES,
  RUNTIME_DIR,
  RUNTIME_FILE,
} from '../../../core/pod/trustedPath.js';
import { SpawnedRegistry } from '../../../plugins/podtree/tree/SpawnedRegistry.js';
import { PodEventOutbox } from '../../../plugins/podtree/PodEventOutbox.js';
import { asOther, otherUser, serveAs, sharedTmp } from '../../support/otherUser.js';

const me = process.getuid!();
const mine = () => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-trust-')));
const modeOf = (p: string) => fs.statSync(p).mode & 0o7777;
const stops: (() => void)[] = [];
afterAll(() => stops.forEach((s) => s()));

describe("trusted paths (the user's own)", () => {
  it('ensureOwnDir creates 0700 directories and tightens its own loose one', () => {
    const root = mine();
    const dir = path.join(root, 'a', 'b');
    ensureOwnDir(dir);
    expect(modeOf(dir)).toBe(0o700);
    fs.chmodSync(dir, 0o777);
    ensureOwnDir(dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(checkOwnDir(dir)).toBe(true);
    expect(checkOwnDir(path.join(root, 'missing'))).toBe(false);
  });

  it('refuses a link, a file, and a directory in a parent others can write (no sticky bit)', () => {
    const root = mine();
    fs.mkdirSync(path.join(root, 'real'));
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
    expect(() => ensureOwnDir(path.join(root, 'link'))).toThrow(
      `runtime directory ${root}/link is a symbolic link: ${RUNTIME_DIR.fix}`,
    );
    expect(() => checkOwnDir(path.join(root, 'link'))).toThrow(
      expect.objectContaining({ code: 'YOI_ERR_UNTRUSTED_PATH' }),
    );
    fs.writeFileSync(path.join(root, 'file'), '');
    expect(() => ensureOwnDir(path.join(root, 'file'))).toThrow(
      `runtime directory ${root}/file is not a directory: ${RUNTIME_DIR.fix}`,
    );
    const open = path.join(root, 'open');
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o777);
    expect(() => ensureOwnDir(path.join(open, 'run'))).toThrow(
      `runtime directory ${open}/run lies in ${open}, which other users can write (mode 0777): ${RUNTIME_DIR.fix}`,
    );
    fs.chmodSync(open, 0o1777); // like /tmp: fine
    ensureOwnDir(path.join(open, 'run'));
  });

  it('opens files without following links or blocking on a FIFO, and checks what it opened', () => {
    const root = mine();
    const file = path.join(root, 'f');
    fs.writeFileSync(file, 'hello', { mode: 0o644 });
    expect(readOwnFile(file)).toBe('hello');
    expect(readOwnFile(path.join(root, 'none'))).toBeUndefined();
    fs.symlinkSync(file, path.join(root, 'l'));
    expect(() => readOwnFile(path.join(root, 'l'))).toThrow(
      `runtime file ${root}/l is a symbolic link: ${RUNTIME_FILE.fix}`,
    );
    fs.chmodSync(file, 0o666);
    expect(() => readOwnFile(file)).toThrow(
      `runtime file ${file} is writable by other users (mode 0666): ${RUNTIME_FILE.fix}`,
    );
    const fd = openOwnFile(file, RUNTIME_FILE, { tighten: true })!;
    fs.closeSync(fd);
    expect(modeOf(file)).toBe(0o600);
    expect(spawnSync('mkfifo', [path.join(root, 'fifo')]).status).toBe(0);
    expect(() => readOwnFile(path.join(root, 'fifo'))).toThrow(
      `runtime file ${root}/fifo is not a regular file: ${RUNTIME_FILE.fix}`,
    );
  });

  it('refuses a file over what yoi reads of its own files, instead of reading it all', () => {
    const root = mine();
    const file = path.join(root, 'spawned_pods.json');
    fs.writeFileSync(file, 'x'.repeat(100_000), { mode: 0o600 });
    expect(readOwnFile(file, RUNTIME_FILE, 100_000)).toHaveLength(100_000);
    expect(() => readOwnFile(file, RUNTIME_FILE, 99_999)).toThrow(
      `runtime file ${file} is over 99999 bytes, more than yoi's files hold: ${RUNTIME_FILE.fix}`,
    );
    fs.truncateSync(file, MAX_OWN_FILE_BYTES + 1); // sparse: no disk written
    expect(() => readOwnFile(file)).toThrow(/is over 16 MiB/);
  });
});

const other = otherUser();
const withOther = 'skip' in other ? describe.skip : describe;
if ('skip' in other) console.warn(`skipped: ${other.skip}`);

withOther("another local user's files are refused", () => {
  const her = other as Exclude<typeof other, { skip: string }>;

  it('her directory, her file, her socket, and our socket in her directory', async () => {
    const tmp = sharedTmp();
    const hers = path.join(tmp, 'yoi-0');
    asOther(
      her,
      `const fs = require('fs'); fs.mkdirSync(process.argv[1]); fs.chmodSync(process.argv[1], 0o777);
      fs.writeFileSync(process.argv[1] + '/status.json', JSON.stringify({ pod_name: 'x', pid: 1, socket: '/x' }));
      fs.writeFileSync(process.argv[1] + '/spawned_pods.json', '[]');`,
      [hers],
    );
    const owned = `is owned by uid ${her.uid}, not you (uid ${me})`;
    expect(() => ensureOwnDir(hers)).toThrow(
      `runtime directory ${hers} ${owned}: remove it, or set YOI_RUNTIME_DIR to a directory you own`,
    );
    expect(modeOf(hers)).toBe(0o777); // not ours to change
    expect(() => checkOwnDir(hers)).toThrow(`runtime directory ${hers} ${owned}`);
    expect(() => ensureOwnDir(path.join(hers, 'default'))).toThrow(`lies in ${hers}, owned by uid ${her.uid}`);
    expect(() => readOwnFile(path.join(hers, 'status.json'))).toThrow(`runtime file ${hers}/status.json ${owned}`);
    expect(readStatusFile(path.join(hers, 'status.json'))).toBeUndefined();
    expect(() => SpawnedRegistry.load(path.join(hers, 'spawned_pods.json'))).toThrow(
      expect.objectContaining({ code: 'YOI_ERR_UNTRUSTED_PATH' }),
    );

    const sock = path.join(tmp, 'her.sock');
    const server = await serveAs(her, sock);
    stops.push(server.stop);
    expect(() => checkOwnSocket(sock)).toThrow(`pod socket ${sock} ${owned}: not connecting to it`);
    expect(await isSocketLive(sock)).toBe(false);
    await expect(PodClient.connect({ socketPath: sock })).rejects.toMatchObject({ code: 'YOI_ERR_UNTRUSTED_PATH' });
    // A child's reports never go there either: dropped, with the reason in its log.
    const log: string[] = [];
    const outbox = new PodEventOutbox({
      socketPath: sock,
      clientName: 'pod/child',
      retryForMs: 300,
      log: (l) => log.push(l),
    });
    outbox.send({ kind: 'shut_down', pod_name: 'child' });
    expect(await outbox.drain(20_000)).toBe(true);
    expect(log).toEqual([
      expect.stringContaining(`dropped the shut_down report to ${sock}: pod socket ${sock} ${owned}`),
    ]);
    expect(server.connections()).toBe(0);

    // Our own socket in her (world-writable) directory: she could swap it, so it is refused too.
    const ours = path.join(hers, 'ours.sock');
    const srv = net.createServer().listen(ours);
    await new Promise((r) => srv.once('listening', r));
    stops.push(() => srv.close());
    expect(() => checkOwnSocket(ours)).toThrow(`pod socket ${ours} lies in ${hers}, owned by uid ${her.uid}`);
    expect(await isSocketLive(ours)).toBe(false);
  });
});
