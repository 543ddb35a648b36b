import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  PROBE_CACHE_FILE,
  cachedSuccess,
  recordSuccess,
  sandboxFingerprint,
} from '../../../plugins/bash/probeCache.js';
import { RawClient } from '../../support/rawClient.js';
import { startPodProcess } from '../../support/runCli.js';

const dirs: string[] = [];
const kills: (() => void)[] = [];
afterEach(() => {
  for (const k of kills.splice(0)) k();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-probe-')));
  fs.chmodSync(dir, 0o700);
  dirs.push(dir);
  return dir;
}

/** A stand-in for bwrap that logs each start to `log` and exits with `code`. */
function fakeBwrap(dir: string, log: string, code: number): string {
  const file = path.join(dir, `bwrap-${code}`);
  fs.writeFileSync(
    file,
    `#!/bin/sh\necho start >> ${log}\n${code === 0 ? '' : 'echo "bwrap: no namespaces here" >&2\n'}exit ${code}\n`,
    { mode: 0o755 },
  );
  return file;
}

const a64 = (c: string) => c.repeat(64);

describe('the probe cache file', () => {
  it('a fingerprint stays for the same bwrap and flags, and changes with the binary or the flags', () => {
    const dir = tempDir();
    const bwrap = fakeBwrap(dir, path.join(dir, 'log'), 0);
    const first = sandboxFingerprint(bwrap, { network: false });
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(sandboxFingerprint(bwrap, { network: false })).toBe(first);
    expect(sandboxFingerprint(bwrap, { network: true })).not.toBe(first);
    fs.appendFileSync(bwrap, '# rebuilt\n');
    expect(sandboxFingerprint(bwrap, { network: false })).not.toBe(first);
    expect(sandboxFingerprint(path.join(dir, 'missing'), { network: false })).toBeUndefined();
  });

  it('remembers successes, newest 16, in a 0600 file of the runtime base', () => {
    const base = tempDir();
    expect(cachedSuccess(base, a64('a'))).toBe(false);
    recordSuccess(base, a64('a'));
    expect(cachedSuccess(base, a64('a'))).toBe(true);
    expect(fs.statSync(path.join(base, PROBE_CACHE_FILE)).mode & 0o777).toBe(0o600);
    const keys = Array.from({ length: 20 }, (_, i) => i.toString(16).padStart(64, '0'));
    for (const k of keys) recordSuccess(base, k);
    expect(keys.map((k) => cachedSuccess(base, k))).toEqual([...Array(4).fill(false), ...Array(16).fill(true)]);
    expect(cachedSuccess(base, a64('a'))).toBe(false);
  });

  it('trusts nothing but its own file: writable by others, a link, malformed or oversized means no cached success', () => {
    const base = tempDir();
    const file = path.join(base, PROBE_CACHE_FILE);
    recordSuccess(base, a64('b'));
    fs.chmodSync(file, 0o666);
    expect(cachedSuccess(base, a64('b'))).toBe(false);

    const elsewhere = tempDir();
    recordSuccess(elsewhere, a64('c'));
    fs.rmSync(file);
    fs.symlinkSync(path.join(elsewhere, PROBE_CACHE_FILE), file);
    expect(cachedSuccess(base, a64('c'))).toBe(false);

    fs.rmSync(file);
    fs.writeFileSync(file, '{"version":1,"ok":["not a digest"]}', { mode: 0o600 });
    expect(cachedSuccess(base, 'not a digest')).toBe(false);
    fs.writeFileSync(file, JSON.stringify({ version: 1, ok: [a64('d')], pad: 'x'.repeat(10_000) }));
    expect(cachedSuccess(base, a64('d'))).toBe(false);
    // A bad file is replaced by the next success, not appended to.
    recordSuccess(base, a64('e'));
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ version: 1, ok: [a64('e')] });
  });

  it('without a runtime base nothing is written and nothing throws', () => {
    const missing = path.join(tempDir(), 'no-such-dir');
    expect(() => recordSuccess(missing, a64('f'))).not.toThrow();
    expect(fs.existsSync(missing)).toBe(false);
    expect(cachedSuccess(missing, a64('f'))).toBe(false);
  });
});

describe('pods in their own processes (the built yoi)', () => {
  async function podTools(
    project: string,
    runtime: string,
    name: string,
  ): Promise<{ tools: string[]; alerts: string[] }> {
    const pod = await startPodProcess(['--name', name], { cwd: project, env: { YOI_RUNTIME_DIR: runtime } });
    kills.push(() => pod.child.kill('SIGKILL'));
    const c = await RawClient.connect(pod.socket);
    c.write('{"method":"get_history"}\n');
    const history = await c.until((e) => e.event === 'history');
    const alerts = c.events.flatMap((e) =>
      e.event === 'alert' ? [String((e.data as { message: string }).message)] : [],
    );
    c.destroy();
    pod.child.kill('SIGTERM');
    await pod.exited;
    return { tools: (history.data as { greeting: { tools: string[] } }).greeting.tools, alerts };
  }

  it('the second pod of the same setup does not start bwrap to probe; a changed bwrap is probed again', async () => {
    const root = tempDir();
    const [project, runtime] = [path.join(root, 'project'), path.join(root, 'run')];
    fs.mkdirSync(project);
    const log = path.join(root, 'starts.log');
    const bwrap = fakeBwrap(root, log, 0);
    fs.writeFileSync(path.join(project, 'yoi.config.json'), JSON.stringify({ bash: { bwrapPath: bwrap } }));
    const starts = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0);

    expect((await podTools(project, runtime, 'one')).tools).toContain('Bash');
    expect(starts()).toBe(1);
    expect((await podTools(project, runtime, 'two')).tools).toContain('Bash');
    expect(starts()).toBe(1);
    fs.appendFileSync(bwrap, '# rebuilt\n');
    expect((await podTools(project, runtime, 'three')).tools).toContain('Bash');
    expect(starts()).toBe(2);
  }, 60_000);

  it('a failed probe is never cached: each pod probes, leaves Bash out and says why', async () => {
    const root = tempDir();
    const [project, runtime] = [path.join(root, 'project'), path.join(root, 'run')];
    fs.mkdirSync(project);
    const log = path.join(root, 'starts.log');
    fs.writeFileSync(
      path.join(project, 'yoi.config.json'),
      JSON.stringify({ bash: { bwrapPath: fakeBwrap(root, log, 1) } }),
    );
    for (const name of ['one', 'two']) {
      const { tools, alerts } = await podTools(project, runtime, name);
      expect(tools).not.toContain('Bash');
      expect(alerts).toContain(
        "yoi:bash: Bash is not offered: bubblewrap cannot create a sandbox here: bwrap: no namespaces here; set bash.sandbox: 'off' to run commands without a sandbox",
      );
    }
    expect(fs.readFileSync(log, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    expect(fs.existsSync(path.join(runtime, PROBE_CACHE_FILE))).toBe(false);
  }, 60_000);
});
