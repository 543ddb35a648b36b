import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { readSession, listSessions } from '../../core/session/readSession.js';
import { makeProject } from '../support/startTestPod.js';
import { startPodProcess, yoi, yoiAsync } from '../support/runCli.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function project(files: Record<string, string> = {}) {
  const dir = makeProject(files);
  const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
  return { dir, env, run: (args: string[], input?: string) => yoi(args, { cwd: dir, env, input }) };
}

async function foreground(p: ReturnType<typeof project>, args: string[] = []) {
  const pod = await startPodProcess(args, { cwd: p.dir, env: p.env });
  cleanups.push(() => pod.child.kill('SIGKILL'));
  return pod;
}

describe('yoi pod start', () => {
  it('prints `listening <socket>` first, creates private runtime files, and says it runs on echo', async () => {
    const p = project();
    const pod = await foreground(p);
    expect(pod.socket).toBe(path.join(p.dir, 'run', 'default', 'sock'));
    const dir = path.dirname(pod.socket);
    expect(fs.statSync(path.join(p.dir, 'run')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(pod.socket).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(dir, 'pid'), 'utf8').trim()).toBe(String(pod.child.pid));
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'status.json'), 'utf8'))).toMatchObject({
      pod_name: 'default',
      state: 'idle',
      pid: pod.child.pid,
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(pod.stderr()).toContain('no model configured: using the offline echo provider');
  });

  it('--detach says why the pod did not start as the foreground does, with its own code only', () => {
    const p = project();
    fs.writeFileSync(path.join(p.dir, 'yoi.config.json'), '{"model":{"provider":5}}');
    const foregroundRun = p.run(['pod', 'start', '--name', 'bad']);
    const detached = p.run(['pod', 'start', '--name', 'bad', '--detach']);
    expect(foregroundRun.stderr).toBe('yoi: yoi.config.json: model.provider: expected string [YOI_ERR_CONFIG]\n');
    expect([detached.status, detached.stderr]).toEqual([1, foregroundRun.stderr]);
  });

  it('refuses a second pod on a live socket, naming it; replaces a stale one', async () => {
    const p = project();
    await foreground(p, ['--name', 'twin']);
    const second = p.run(['pod', 'start', '--name', 'twin']);
    expect(second.status).not.toBe(0);
    expect(second.stderr.trim()).toMatch(
      /^yoi: pod twin is already running \(socket .*twin\/sock\) \[YOI_ERR_POD_RUNNING\]$/,
    );
    // --detach fails the same way instead of taking the live pod's socket for its own.
    const detached = p.run(['pod', 'start', '--name', 'twin', '--detach']);
    expect(detached.status).toBe(1);
    expect(detached.stdout).toBe('');
    expect(detached.stderr).toBe(second.stderr);
    // A stale socket file (nobody listening) is replaced.
    const stale = path.join(p.dir, 'run', 'ghost');
    fs.mkdirSync(stale, { recursive: true });
    const srv = net.createServer().listen(path.join(stale, 'sock'));
    await new Promise((r) => srv.once('listening', r));
    srv.close(); // leaves no listener; on Linux the file stays behind
    fs.writeFileSync(path.join(stale, 'sock'), '');
    const ghost = await foreground(p, ['--name', 'ghost']);
    expect(ghost.socket).toBe(path.join(stale, 'sock'));
  });

  it('a pod that cannot start (its provider fails) says why in one line and leaves no runtime dir', () => {
    const p = project({
      'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 'missing.json' } }),
    });
    for (const args of [
      ['pod', 'start'],
      ['pod', 'start', '--detach'],
    ]) {
      const r = p.run(args);
      expect(r.status).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/cannot start provider "scripted".*missing\.json/);
      expect(fs.existsSync(path.join(p.dir, 'run', 'default'))).toBe(false);
    }
  });

  it('a socket path too long for the OS is one clear error, not EINVAL', () => {
    const p = project();
    const r = yoi(['pod', 'start'], { cwd: p.dir, env: { YOI_RUNTIME_DIR: path.join(p.dir, 'x'.repeat(120)) } });
    expect(r.status).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/socket path is too long for this OS \(\d+ bytes, the limit is 10[37]\)/);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s shuts down cleanly: shutdown broadcast, log flushed, runtime dir removed',
    async (signal) => {
      const p = project();
      const pod = await foreground(p);
      const events: string[] = [];
      const sock = net.connect(pod.socket);
      sock.on('data', (d) => events.push(...d.toString().trim().split('\n')));
      await new Promise((r) => sock.once('connect', r));
      sock.write('{"method":"run","params":{"input":[{"kind":"text","content":"before stop"}]}}\n');
      await new Promise((r) => setTimeout(r, 300));
      pod.child.kill(signal);
      expect(await pod.exited).toBe(0);
      expect(events.at(-1)).toBe('{"event":"shutdown"}');
      expect(fs.existsSync(path.dirname(pod.socket))).toBe(false);
      const [file] = listSessions(path.join(p.dir, '.yoi', 'sessions'));
      expect(JSON.stringify(readSession(file).history)).toContain('before stop');
    },
  );

  it('--detach returns once ready; pod list/status/stop work on it', async () => {
    const p = project();
    const started = p.run(['pod', 'start', '--detach', '--name', 'bg']);
    expect(started.status).toBe(0);
    expect(started.stdout.trim()).toBe(`listening ${path.join(p.dir, 'run', 'bg', 'sock')}`);
    cleanups.push(() => p.run(['pod', 'stop', '--pod', 'bg']));
    const list = JSON.parse(p.run(['pod', 'list', '--json']).stdout);
    expect(list).toEqual([expect.objectContaining({ name: 'bg', alive: true, state: 'idle' })]);
    const status = JSON.parse(p.run(['pod', 'status', '--pod', 'bg', '--json']).stdout);
    expect(status).toMatchObject({ pod: 'bg', status: 'idle', provider: 'echo' });
    expect(p.run(['pod', 'stop', '--pod', 'bg']).stdout.trim()).toBe('stopped bg');
    expect(JSON.parse(p.run(['pod', 'list', '--json']).stdout)).toEqual([]);
  });
});

describe('client commands', () => {
  it('yoi send: text args + piped stdin as a paste with the right chars/lines, streams the reply', async () => {
    const p = project({ 'a.txt': 'alpha\n' });
    await foreground(p);
    const r = p.run(['send', 'see', 'this', '--file', 'a.txt'], 'héllo\nwörld\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^\[user\] see this\nhéllo\nwörld\n\n\[system\] \[File: a\.txt\]\nalpha\n1 request · context \d+ tokens · \d+ output tokens\n$/,
    );
    expect(p.run(['send', '--quiet', 'see', 'this', '--file', 'a.txt'], 'héllo\nwörld\n').stdout).toBe(
      '[user] see this\nhéllo\nwörld\n\n[system] [File: a.txt]\nalpha\n',
    );
    const json = p.run(['send', '--json', 'x'], '12345');
    const events = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const um = events.find((e) => e.event === 'user_message');
    expect(um.data.segments).toEqual([
      { kind: 'text', content: 'x\n' },
      { kind: 'paste', id: 1, chars: 5, lines: 1, content: '12345' },
    ]);
    expect(events.at(-1).event).toBe('status');
    expect(events.some((e) => e.event === 'run_end')).toBe(true);
  });

  it('yoi send exits non-zero on a run error; alerts go to stderr', async () => {
    const p = project({
      's.json': JSON.stringify([{ error: 'upstream exploded' }]),
      'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
    });
    await foreground(p);
    const r = p.run(['send', 'hi', '--knowledge', 'missing']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('[warn] knowledge_ref #missing was not resolved');
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      'yoi: the run failed: upstream exploded [YOI_ERR_REQUEST provider_error]',
    );
  });

  it('history --json, cancel/pause/resume errors, and a pod that does not exist', async () => {
    const p = project();
    await foreground(p);
    p.run(['send', 'remember me']);
    const items = JSON.parse(p.run(['history', '--json']).stdout);
    expect(items[0]).toEqual({
      type: 'message',
      role: 'user',
      content: [{ type: 'text', text: 'remember me' }],
      segments: [{ kind: 'text', content: 'remember me' }],
    });
    expect(p.run(['history']).stdout).toContain('user: remember me');
    for (const [cmd, msg] of [
      ['cancel', 'no turn is running in pod default: nothing to cancel [YOI_ERR_REQUEST not_running]'],
      ['pause', 'no turn is running in pod default: nothing to pause [YOI_ERR_REQUEST not_running]'],
      ['resume', 'pod default is not paused: nothing to resume [YOI_ERR_REQUEST not_paused]'],
    ]) {
      const r = p.run([cmd]);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`yoi: ${msg}\n`);
    }
    const none = p.run(['send', '--pod', 'nobody', 'hi']);
    expect(none.status).not.toBe(0);
    expect(none.stderr.trim()).toBe(
      `yoi: pod nobody is not running (no pod listens on ${path.join(p.dir, 'run', 'nobody', 'sock')}); start it with: yoi pod start --name nobody --detach [YOI_ERR_POD_NOT_FOUND]`,
    );
  });
});

describe('session log durability', () => {
  it('after SIGKILL mid-run, --resume restores every run that had ended and the interrupted input', async () => {
    const script = [{ text: 'first answer' }, { text: 'second answer' }, { chunks: ['partial'], delay_ms: 60_000 }];
    const p = project({
      's.json': JSON.stringify(script),
      'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
    });
    const pod = await foreground(p);
    expect(p.run(['send', 'one']).status).toBe(0);
    expect(p.run(['send', 'two']).status).toBe(0);
    const third = yoiAsync(['send', 'three'], { cwd: p.dir, env: p.env });
    const [log] = listSessions(path.join(p.dir, '.yoi', 'sessions'));
    for (let i = 0; i < 200 && !fs.readFileSync(log, 'utf8').includes('"three"'); i++)
      await new Promise((r) => setTimeout(r, 50));
    pod.child.kill('SIGKILL'); // mid-run: the third reply is still being 'generated'
    await pod.exited;
    await third;
    const restored = await foreground(p, ['--resume']);
    const items = JSON.parse(p.run(['history', '--json']).stdout);
    const texts = items.map((i: { content?: { text: string }[] }) => i.content?.[0]?.text);
    // Ended runs intact; the interrupted run's input kept; nothing half-written.
    expect(texts).toEqual(['one', 'first answer', 'two', 'second answer', 'three']);
    expect(readSession(log).interrupted).toBe(false); // the restore closed the interrupted run in the log
    expect(restored.socket).toContain('default');
  });
});
