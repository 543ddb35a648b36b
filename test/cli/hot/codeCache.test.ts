import { afterAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeProject } from '../../support/startTestPod.js';
import { startPodProcess, yoi } from '../../support/runCli.js';
import { asOther, otherUser, type OtherUser } from '../../support/otherUser.js';

/**
 * The bundle's V8 code cache (cli/hot/loadBundle.ts) through real `yoi` processes. What the
 * pod does with a cache shows in the cache directory: the loader writes a cache only when it had
 * none that V8 accepted, so a file left as it was has been used, and a rewritten one was not.
 * Each case ends with a `yoi send` answered by the pod.
 */

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dir = fs.realpathSync(makeProject());
  dirs.push(dir);
  const cache = path.join(dir, 'xdg-cache');
  const env = { YOI_RUNTIME_DIR: path.join(dir, 'run'), XDG_CACHE_HOME: cache };
  const v8Dir = path.join(cache, 'yoi', 'v8');
  /** The pod caches (`*.bin`) as name → inode, mtime, uid, mode. */
  const caches = () =>
    Object.fromEntries(
      (fs.existsSync(v8Dir) ? fs.readdirSync(v8Dir) : [])
        .filter((f) => f.endsWith('.bin'))
        .map((f) => {
          const st = fs.statSync(path.join(v8Dir, f));
          return [f, { ino: st.ino, mtimeMs: st.mtimeMs, uid: st.uid, mode: st.mode & 0o777, size: st.size }];
        }),
    );
  /** Starts a pod, checks that it answers, stops it. */
  const startSendStop = async (name: string) => {
    const pod = await startPodProcess(['--name', name], { cwd: dir, env });
    const sent = yoi(['send', '--pod', name, 'still here?'], { cwd: dir, env });
    expect(sent.stderr).toBe('');
    expect(sent.stdout).toContain('[user] still here?');
    pod.child.kill('SIGTERM');
    expect(await pod.exited).toBe(0);
    return pod.stderr();
  };
  return { dir, env, v8Dir, caches, startSendStop };
}

describe('the code cache of the bundle', () => {
  it('is created by the first start, used by the next (not rewritten), one per role', async () => {
    const t = setup();
    expect(t.caches()).toEqual({});
    await t.startSendStop('a');
    const first = t.caches();
    // One for the pod, one for `yoi send` (the other clients have a third).
    expect(Object.keys(first)).toHaveLength(2);
    for (const c of Object.values(first)) {
      expect(c.mode).toBe(0o600);
      expect(c.size).toBeGreaterThan(100_000);
    }
    expect(fs.statSync(t.v8Dir).mode & 0o777).toBe(0o700);
    await t.startSendStop('b');
    expect(t.caches()).toEqual(first);
  });

  it('ignores a corrupted cache and replaces it, whether its hash or V8 refuses it', async () => {
    const t = setup();
    await t.startSendStop('a');
    const names = Object.keys(t.caches());
    // Bytes flipped in the payload (its hash no longer matches) in one, in the other a payload
    // with a right hash that V8 itself rejects.
    const [flipped, foreign] = names.map((n) => path.join(t.v8Dir, n));
    const bytes = fs.readFileSync(flipped);
    for (let i = bytes.length - 5000; i < bytes.length - 4000; i++) bytes[i] ^= 0xff;
    fs.writeFileSync(flipped, bytes);
    const head = fs.readFileSync(foreign, 'latin1').split('\n').slice(0, 2).join('\n');
    const junk = Buffer.alloc(4096, 7);
    const { createHash } = await import('node:crypto');
    fs.writeFileSync(
      foreign,
      Buffer.concat([Buffer.from(`${head}\n${createHash('sha256').update(junk).digest('hex')}\n`), junk]),
    );
    const planted = t.caches();
    await t.startSendStop('b');
    const after = t.caches();
    expect(Object.keys(after).sort()).toEqual(names.sort());
    for (const n of names) {
      expect(after[n].ino).not.toBe(planted[n].ino);
      expect(after[n].size).toBeGreaterThan(100_000);
    }
    // The replacements are used.
    await t.startSendStop('c');
    expect(t.caches()).toEqual(after);
  });

  it('does not use a cache file that is writable by others, and replaces it with its own', async () => {
    const t = setup();
    await t.startSendStop('a');
    const before = t.caches();
    for (const n of Object.keys(before)) fs.chmodSync(path.join(t.v8Dir, n), 0o664);
    await t.startSendStop('b');
    const after = t.caches();
    for (const n of Object.keys(before)) {
      expect(after[n].ino).not.toBe(before[n].ino);
      expect(after[n].mode).toBe(0o600);
    }
  });

  it('ignores the old cache of a changed bundle', async () => {
    // A copy of the CLI (bin, the bundle, package.json; node_modules linked), whose bundle is
    // then changed without changing its length: the cache of the old one must not run for it.
    const copy = fs.realpathSync(makeProject());
    dirs.push(copy);
    fs.cpSync(path.join(REPO, 'bin'), path.join(copy, 'bin'), { recursive: true });
    fs.cpSync(path.join(REPO, 'dist', 'bundle'), path.join(copy, 'dist', 'bundle'), { recursive: true });
    fs.copyFileSync(path.join(REPO, 'package.json'), path.join(copy, 'package.json'));
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(copy, 'node_modules'));
    const t = setup();
    const start = async (name: string) => {
      const pod = await startPodProcessFrom(path.join(copy, 'bin', 'run.js'), name, t);
      pod.child.kill('SIGTERM');
      expect(await pod.exited).toBe(0);
      return pod.stderr();
    };
    expect(await start('a')).toContain('no model configured: using the offline echo provider');
    const old = t.caches();
    expect(Object.keys(old)).toHaveLength(1);
    const cjs = path.join(copy, 'dist', 'bundle', 'yoi.cjs');
    const text = fs.readFileSync(cjs, 'latin1');
    const changed = text.replace(
      'no model configured: using the offline echo provider',
      'no model configured: using the OFFLINE echo provider',
    );
    expect(changed).not.toBe(text);
    fs.writeFileSync(cjs, changed, 'latin1');
    expect(await start('b')).toContain('no model configured: using the OFFLINE echo provider');
    const now = t.caches();
    expect(Object.keys(now)).toHaveLength(2);
    const [kept] = Object.keys(old);
    expect(now[kept]).toEqual(old[kept]);
  });
});

/** `yoi pod start --name N` run by another copy's bin/run.js. */
async function startPodProcessFrom(bin: string, name: string, t: { dir: string; env: Record<string, string> }) {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [bin, 'pod', 'start', '--name', name], {
    cwd: t.dir,
    env: { ...process.env, ...t.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('listening ')) resolve();
    });
    void exited.then((code) => reject(new Error(`pod exited (${code}) before listening: ${err}`)));
  });
  return { child, exited, stderr: () => err };
}

const other = otherUser();
if ('skip' in other) console.warn(`skipped: ${other.skip}`);

describe.each('skip' in other ? [] : [other as OtherUser])('the code cache and another user', (her) => {
  it('never uses a cache file she owns, nor a cache directory of hers; the pod starts', async () => {
    const t = setup();
    await t.startSendStop('a');
    const names = Object.keys(t.caches());
    // She owns the files (as if she had put them there): replaced by the user's own.
    for (const n of names) fs.chownSync(path.join(t.v8Dir, n), her.uid, her.gid);
    await t.startSendStop('b');
    const after = t.caches();
    for (const n of names) expect(after[n].uid).toBe(process.getuid!());

    // Her directory as the cache: not used, nothing written into it, the pod starts as before.
    const hers = path.join(t.dir, 'her-cache');
    fs.chmodSync(t.dir, 0o755);
    fs.mkdirSync(hers);
    fs.chownSync(hers, her.uid, her.gid);
    asOther(her, `require('fs').mkdirSync(process.argv[1] + '/yoi/v8', { recursive: true, mode: 0o755 })`, [hers]);
    const env = { ...t.env, XDG_CACHE_HOME: hers };
    const pod = await startPodProcess(['--name', 'c'], { cwd: t.dir, env });
    const sent = yoi(['send', '--pod', 'c', 'still here?'], { cwd: t.dir, env });
    expect(sent.stdout).toContain('[user] still here?');
    pod.child.kill('SIGTERM');
    expect(await pod.exited).toBe(0);
    expect(fs.readdirSync(path.join(hers, 'yoi', 'v8'))).toEqual([]);
  });
});
