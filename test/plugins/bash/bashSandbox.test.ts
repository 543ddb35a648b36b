import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { bashFixture, describeSandboxed, tempTree } from './bashHarness.js';

const trees: ReturnType<typeof tempTree>[] = [];
afterEach(() => {
  for (const t of trees.splice(0)) t.remove();
});
function tree(files: Record<string, string> = {}) {
  const t = tempTree(files);
  trees.push(t);
  return t;
}

describeSandboxed('Bash in the bubblewrap sandbox: the filesystem', () => {
  it('writes inside the write scope; writing outside it fails and leaves nothing behind', async () => {
    const t = tree();
    const { call, tool } = bashFixture(t.project);
    expect(tool?.sandboxed).toBe(true);
    const inside = await call({
      command: 'echo made > made.txt && mkdir -p deep/er && echo x > deep/er/y && cat made.txt',
    });
    expect(inside).toEqual({ summary: 'Command exited with code 0', content: 'made\n' });
    expect(fs.readFileSync(t.at('made.txt'), 'utf8')).toBe('made\n');
    expect(fs.readFileSync(t.at('deep/er/y'), 'utf8')).toBe('x\n');

    const outside = path.join(t.root, 'outside.txt');
    const refused = await call({ command: `echo leak > ${outside}` });
    expect(refused.is_error).toBe(true);
    expect(refused.summary).toBe('Command exited with code 1');
    expect(refused.content).toMatch(/Read-only file system/);
    expect(fs.existsSync(outside)).toBe(false);
    // Not even root in the sandbox can undo the mounts (no capabilities).
    const remount = await call({
      command: `mount -o remount,rw / 2>&1; umount ${t.project} 2>&1; echo leak > ${outside}`,
    });
    expect(remount.is_error).toBe(true);
    expect(fs.existsSync(outside)).toBe(false);
  });

  it('makes denied files and directories unreadable and deny-write regions read-only', async () => {
    const t = tree({ 'secret.txt': 'TOP-SECRET\n', 'vault/key': 'KEY-MATERIAL\n', 'docs/readme': 'public\n' });
    const { call } = bashFixture(t.project, {
      scope: {
        deny: [
          { target: 'secret.txt', permission: 'read' },
          { target: 'vault', permission: 'read' },
          { target: 'docs', permission: 'write' },
        ],
      },
    });
    const file = await call({ command: 'cat secret.txt' });
    expect(file).toMatchObject({ is_error: true, content: expect.stringMatching(/secret\.txt: Permission denied/) });
    const dir = await call({ command: 'ls vault; cat vault/key' });
    expect(dir.is_error).toBe(true);
    expect(dir.content).toMatch(/Permission denied/);
    for (const out of [file, dir]) expect(out.content).not.toMatch(/TOP-SECRET|KEY-MATERIAL/);
    // Overwriting or replacing the denied file does not work either, and the host file is intact.
    const unmount = await call({ command: 'umount secret.txt vault 2>&1; cat secret.txt vault/key' });
    expect(unmount.is_error).toBe(true);
    expect(unmount.content).not.toMatch(/TOP-SECRET|KEY-MATERIAL/);
    const replace = await call({ command: 'echo x > secret.txt; rm -f secret.txt; mv secret.txt s2' });
    expect(replace.is_error).toBe(true);
    expect(fs.readFileSync(t.at('secret.txt'), 'utf8')).toBe('TOP-SECRET\n');

    const docs = await call({ command: 'cat docs/readme && echo x > docs/new' });
    expect(docs.is_error).toBe(true);
    expect(docs.content).toMatch(/^public\n.*Read-only file system/s);
    expect(fs.existsSync(t.at('docs/new'))).toBe(false);
  });

  it('a restricted region cannot be carried away by renaming a directory above it (replayed attack)', async () => {
    const t = tree({ 'conf/deep/secret.env': 'TOP-SECRET\n', 'src/child/a': 'a\n' });
    const { call, scope } = bashFixture(t.project, {
      scope: { deny: [{ target: 'conf/deep/secret.env', permission: 'read' }] },
    });
    scope.lockWrite(t.at('src/child'));
    const moved = await call({
      command: 'mv conf conf2; mv conf/deep conf/deep2; mv src src2; rm -rf src; ls conf2 conf/deep2 src2',
    });
    expect(moved.is_error).toBe(true);
    expect(moved.content?.match(/cannot move .*: Device or resource busy/g)).toHaveLength(3);
    expect(moved.content).toMatch(/ls: cannot access 'conf2'.*'conf\/deep2'.*'src2'/s);
    // On the host nothing moved, and the next command still finds everything in place.
    expect(fs.readFileSync(t.at('conf/deep/secret.env'), 'utf8')).toBe('TOP-SECRET\n');
    expect(fs.readFileSync(t.at('src/child/a'), 'utf8')).toBe('a\n');
    const again = await call({
      command:
        'cat conf2/deep/secret.env conf/deep2/secret.env src2/child/a 2>&1; cat conf/deep/secret.env; echo x > src/child/a',
    });
    expect(again.is_error).toBe(true);
    expect(again.content).not.toContain('TOP-SECRET');
    expect(again.content).toMatch(/secret\.env: Permission denied.*Read-only file system/s);
  });

  it('honours runtime write locks (regions delegated to a child pod) and their release', async () => {
    const t = tree({ 'child/a.txt': 'a\n' });
    const { call, scope } = bashFixture(t.project);
    const lock = scope.lockWrite(t.at('child'));
    const locked = await call({ command: 'cat child/a.txt; echo b > child/b.txt' });
    expect(locked).toMatchObject({ is_error: true, content: expect.stringMatching(/^a\n.*Read-only file system/s) });
    expect(fs.existsSync(t.at('child/b.txt'))).toBe(false);
    lock.release();
    expect(await call({ command: 'echo b > child/b.txt' })).toEqual({ summary: 'Command exited with code 0' });
    expect(fs.readFileSync(t.at('child/b.txt'), 'utf8')).toBe('b\n');
  });

  it('a non-recursive write rule lets the directory be written, not its subdirectories', async () => {
    const t = tree({ 'top/sub/x': 'x\n' });
    const { call } = bashFixture(t.project, {
      scope: {
        allow: [
          { target: 'top', permission: 'write', recursive: false },
          { target: '.', permission: 'read' },
        ],
      },
    });
    expect(await call({ command: 'echo ok > top/direct.txt' })).toEqual({ summary: 'Command exited with code 0' });
    const deeper = await call({ command: 'echo no > top/sub/deeper.txt' });
    expect(deeper).toMatchObject({ is_error: true, content: expect.stringMatching(/Read-only file system/) });
    expect(fs.existsSync(t.at('top/sub/deeper.txt'))).toBe(false);
    // Only-readable parts of the project stay readable.
    expect(await call({ command: 'cat top/sub/x; echo no > rootfile' })).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/^x\n.*Read-only/s),
    });
  });

  it('a symlink inside the project that leads outside the write scope does not open it', async () => {
    const t = tree();
    const elsewhere = path.join(t.root, 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.symlinkSync(elsewhere, t.at('link'));
    const out = await call(t, { command: 'echo x > link/planted' });
    expect(out).toMatchObject({ is_error: true, content: expect.stringMatching(/Read-only file system/) });
    expect(fs.existsSync(path.join(elsewhere, 'planted'))).toBe(false);
  });

  it("/tmp is private, and the working directory is the pod's unless cwd says otherwise", async () => {
    const t = tree({ 'sub/.keep': '' });
    const { call } = bashFixture(t.project);
    const marker = `yoi-private-${process.pid}-${Date.now()}`;
    const tmp = await call({ command: `echo hi > /tmp/${marker} && cat /tmp/${marker} && ls /tmp | wc -l && pwd` });
    expect(tmp).toEqual({ summary: 'Command exited with code 0', content: `hi\n1\n${t.project}\n` });
    expect(fs.existsSync(`/tmp/${marker}`)).toBe(false);
    expect((await call({ command: 'pwd', cwd: 'sub' })).content).toBe(`${t.at('sub')}\n`);
    expect(await call({ command: 'pwd', cwd: t.root })).toEqual({
      summary: `cannot run in ${t.root}: outside the pod's scope`,
      is_error: true,
    });
    expect(await call({ command: 'pwd', cwd: 'sub/.keep' })).toEqual({
      summary: `cannot run in ${t.at('sub/.keep')}: not a directory`,
      is_error: true,
    });
    expect(await call({ command: 'pwd', cwd: 'missing' })).toEqual({
      summary: `cannot run in ${t.at('missing')}: it does not exist`,
      is_error: true,
    });
  });

  it("runs with a small clean environment: none of the pod's secrets", async () => {
    const t = tree();
    const { call } = bashFixture(t.project);
    process.env.YOI_TEST_API_KEY = 'sk-should-never-leak';
    try {
      const out = await call({ command: 'env | sort' });
      expect(out.content).not.toContain('sk-should-never-leak');
      const names = out
        .content!.trim()
        .split('\n')
        .map((l) => l.split('=')[0]);
      expect(names).toEqual(expect.arrayContaining(['HOME', 'LANG', 'PATH', 'TERM', 'TMPDIR']));
      expect(
        names.filter(
          (n) =>
            ![
              'HOME',
              'LANG',
              'LC_ALL',
              'LC_CTYPE',
              'LOGNAME',
              'OLDPWD',
              'PATH',
              'PWD',
              'SHELL',
              'SHLVL',
              'TERM',
              'TMPDIR',
              'TZ',
              'USER',
              '_',
            ].includes(n),
        ),
      ).toEqual([]);
      expect(out.content).toContain('TERM=dumb\n');
    } finally {
      delete process.env.YOI_TEST_API_KEY;
    }
  });
});

describeSandboxed('Bash in the bubblewrap sandbox: the network', () => {
  let server: net.Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  async function listen() {
    let connections = 0;
    server = net.createServer((s) => {
      connections++;
      s.end('hello from the host\n');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return { port: (server.address() as net.AddressInfo).port, connections: () => connections };
  }
  const connect = (port: number) => `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;

  it('is off: a local TCP server the test started is unreachable from inside', async () => {
    const t = tree();
    const srv = await listen();
    const out = await bashFixture(t.project).call({ command: connect(srv.port) });
    expect(out).toMatchObject({ is_error: true, content: expect.stringMatching(/Connection refused/) });
    expect(srv.connections()).toBe(0);
  });

  it('is on with the option network: true', async () => {
    const t = tree();
    const srv = await listen();
    const out = await bashFixture(t.project, { options: { network: true } }).call({ command: connect(srv.port) });
    expect(out).toEqual({ summary: 'Command exited with code 0', content: 'hello from the host\n' });
    expect(srv.connections()).toBe(1);
  });
});

async function call(t: ReturnType<typeof tempTree>, args: Record<string, unknown>) {
  return bashFixture(t.project).call(args);
}
