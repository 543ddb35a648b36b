import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject } from '../support/startTestPod.js';
import { startPodProcess, yoi } from '../support/runCli.js';
import { asOther, otherUser, runAs, serveAs, sharedTmp, type OtherUser } from '../support/otherUser.js';

/**
 * The runtime-dir takeover, replayed with a second local user and real processes. With neither
 * YOI_RUNTIME_DIR nor XDG_RUNTIME_DIR set, pods fall back to `<tmpdir>/yoi-<uid>`; she creates
 * it first (mode 0777), then swaps in her scope.lock and binds her own `default/sock`. `TMPDIR`
 * points at a sticky temp dir standing in for /tmp, so the real /tmp/yoi-* is never touched.
 */

const other = otherUser();
if ('skip' in other) console.warn(`skipped: ${other.skip}`);
const withOther = 'skip' in other ? describe.skip : describe;
const me = process.getuid!();

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function victim() {
  const tmp = sharedTmp();
  const dir = makeProject({ 'a.txt': 'secret paste target\n' });
  // The fallback: no runtime dir variables, os.tmpdir() is `tmp`.
  const env = { TMPDIR: tmp, YOI_RUNTIME_DIR: '', XDG_RUNTIME_DIR: '' };
  return {
    tmp,
    dir,
    env,
    base: path.join(tmp, `yoi-${me}`),
    run: (args: string[], input?: string) => yoi(args, { cwd: dir, env, input }),
  };
}

const mkdir777 = `const fs = require('fs'); for (const d of process.argv.slice(1)) { fs.mkdirSync(d); fs.chmodSync(d, 0o777); }`;

withOther('a second local user cannot take over the runtime directory', () => {
  const her = other as OtherUser;
  const owned = `is owned by uid ${her.uid}, not you (uid ${me})`;

  it('her pre-created fallback directory: the pod refuses to start (one line) and writes nothing there', async () => {
    const v = victim();
    asOther(her, mkdir777, [v.base]);
    const line = `yoi: runtime directory ${v.base} ${owned}: remove it, or set YOI_RUNTIME_DIR to a directory you own [YOI_ERR_UNTRUSTED_PATH]\n`;
    for (const args of [
      ['pod', 'start'],
      ['pod', 'start', '--detach'],
    ]) {
      const r = v.run(args);
      expect([args.join(' '), r.status, r.stderr]).toEqual([args.join(' '), 1, line]);
    }
    expect(fs.readdirSync(v.base)).toEqual([]);
    expect(fs.statSync(v.base).uid).toBe(her.uid);
    // The fix the line names works.
    const pod = await startPodProcess([], { cwd: v.dir, env: { ...v.env, YOI_RUNTIME_DIR: path.join(v.dir, 'run') } });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    expect(pod.socket).toBe(path.join(v.dir, 'run', 'default', 'sock'));
  });

  it("her socket where the victim's pod would listen: no client connects, each says why in one line", async () => {
    const v = victim();
    const sock = path.join(v.base, 'default', 'sock');
    asOther(her, mkdir777, [v.base, path.dirname(sock)]);
    const server = await serveAs(her, sock);
    cleanups.push(server.stop);
    const refusals = [
      ['send', 'my paste'],
      ['send', '--socket', sock, 'my paste'],
      ['pod', 'status'],
      ['pod', 'stop'],
      ['history'],
      ['attach'],
    ];
    for (const args of refusals) {
      const r = v.run(args, 'pasted secret');
      expect([args.join(' '), r.status]).toEqual([args.join(' '), 1]);
      expect(r.stderr).toBe(
        `yoi: pod socket ${sock} ${owned}: not connecting to it; remove it, or set YOI_RUNTIME_DIR to a directory you own [YOI_ERR_UNTRUSTED_PATH]\n`,
      );
    }
    const list = v.run(['pod', 'list']);
    expect(list.status).toBe(1);
    expect(list.stderr).toBe(
      `yoi: runtime directory ${v.base} ${owned}: remove it, or set YOI_RUNTIME_DIR to a directory you own [YOI_ERR_UNTRUSTED_PATH]\n`,
    );
    // A socket she bound in a shared (sticky) directory, given with --socket: refused as well.
    const loose = path.join(v.tmp, 'her.sock');
    const second = await serveAs(her, loose);
    cleanups.push(second.stop);
    const r = v.run(['send', '--socket', loose, 'my paste'], 'pasted secret');
    expect(r.stderr).toBe(
      `yoi: pod socket ${loose} ${owned}: not connecting to it; remove it, or set YOI_RUNTIME_DIR to a directory you own [YOI_ERR_UNTRUSTED_PATH]\n`,
    );
    expect(server.connections() + second.connections()).toBe(0);
  });

  it("a scope.lock or pod directory she swapped into the victim's loose runtime directory is refused; a private one keeps her out", async () => {
    const v = victim();
    fs.mkdirSync(v.base, { mode: 0o777 });
    fs.chmodSync(v.base, 0o777); // the victim's own, but loose (made by hand, or by an old yoi)
    const lock = path.join(v.base, 'scope.lock');
    const forged = JSON.stringify({
      allocations: [
        {
          pod_name: 'x',
          pid: 1,
          socket: '/x',
          scope_allow: [{ target: '/', permission: 'write', recursive: true }],
          delegated_from: null,
        },
      ],
    });
    asOther(her, `require('fs').writeFileSync(process.argv[1], process.argv[2])`, [lock, forged]);
    let r = v.run(['pod', 'start']);
    expect(r.status).toBe(1);
    // The pod tree plugin found it, and the line says so.
    expect(r.stderr).toBe(
      `yoi: plugin yoi:pod-tree failed in podInit: scope lock ${lock} ${owned}: remove it when no pod is running, or set YOI_RUNTIME_DIR to a directory you own [YOI_ERR_PLUGIN]\n`,
    );
    expect(fs.statSync(v.base).mode & 0o777).toBe(0o700); // its own directory was tightened
    expect(fs.readFileSync(lock, 'utf8')).toBe(forged);

    // Her file behind a link of the victim's name: refused as a link.
    fs.rmSync(lock);
    const hers = path.join(v.tmp, 'her-lock.json');
    asOther(her, `require('fs').writeFileSync(process.argv[1], process.argv[2])`, [hers, forged]);
    fs.symlinkSync(hers, lock);
    r = v.run(['pod', 'start']);
    expect(r.stderr).toBe(
      `yoi: plugin yoi:pod-tree failed in podInit: scope lock ${lock} is a symbolic link: remove it when no pod is running, or set YOI_RUNTIME_DIR to a directory you own [YOI_ERR_PLUGIN]\n`,
    );

    // Her pod directory (with her socket) inside the victim's runtime directory.
    fs.rmSync(lock);
    fs.chmodSync(v.base, 0o777);
    asOther(her, mkdir777, [path.join(v.base, 'default')]);
    r = v.run(['pod', 'start']);
    expect(r.stderr).toBe(
      `yoi: runtime directory ${path.join(v.base, 'default')} ${owned}: remove it, or set YOI_RUNTIME_DIR to a directory you own [YOI_ERR_UNTRUSTED_PATH]\n`,
    );
    expect(r.status).toBe(1);

    // Once it is private (0700, the victim's), she can neither swap the lock nor plant a socket.
    fs.rmSync(path.join(v.base, 'default'), { recursive: true });
    const pod = await startPodProcess([], { cwd: v.dir, env: v.env });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    expect(fs.statSync(v.base).mode & 0o777).toBe(0o700);
    const swap = runAs(her, `const fs = require('fs'); fs.writeFileSync(process.argv[1] + '/scope.lock', 'x');`, [
      v.base,
    ]);
    expect(swap.status).not.toBe(0);
    expect(swap.stderr).toContain('EACCES');
    const reply = v.run(['send', 'hello']);
    expect(reply.status).toBe(0);
  });
});
