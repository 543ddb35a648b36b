import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import type { ToolOutput } from '../../../core/tools/Tool.js';
import { bashFixture, describeSandboxed, eventually, processesWith, tempTree, token } from './bashHarness.js';

const trees: ReturnType<typeof tempTree>[] = [];
afterEach(() => {
  for (const t of trees.splice(0)) t.remove();
});
function bash(options?: NonNullable<Parameters<typeof bashFixture>[1]>['options']) {
  const t = tempTree();
  trees.push(t);
  return bashFixture(t.project, { options });
}

/** The PID namespace (`pid:[inode]`) of a process, or undefined once it is gone. */
function pidNamespace(pid: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

/** Every live process in PID namespace `ns`. */
function processesIn(ns: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => pidNamespace(pid) === ns);
}

/**
 * Waits until at least `count` processes carrying `tag` (and passing `which`) run in the
 * command's own PID namespace, and returns that namespace.
 */
async function started(tag: string, result: Promise<ToolOutput>, count = 1, which = (_cmd: string) => true) {
  let ns: string | undefined;
  let settled = false;
  void result.finally(() => (settled = true));
  const ours = pidNamespace(process.pid);
  // The launcher (bwrap, in our namespace) carries the command line too; the command itself runs
  // in a PID namespace of its own.
  await eventually(() => {
    const inside = processesWith(tag)
      .filter((p) => which(p.cmd))
      .map((p) => pidNamespace(p.pid))
      .filter((n) => n !== undefined && n !== ours);
    ns = inside.length >= count ? inside[0] : undefined;
    return ns !== undefined || settled;
  }, `a process carrying ${tag} runs in a namespace of its own`);
  expect(ns).toBeDefined();
  return ns!;
}

describeSandboxed('Bash processes: time limit, cancel, nothing left behind', () => {
  it('an endless loop is killed at the timeout, and the result says so', async () => {
    const tag = token();
    const { call } = bash();
    const result = call({ command: `while :; do :; done # ${tag}`, timeout_ms: 1000 });
    const ns = await started(tag, result);
    expect(await result).toEqual({
      summary: 'Command timed out after 1000 ms; it was killed with all its processes',
      is_error: true,
    });
    await eventually(() => processesIn(ns).length === 0 && processesWith(tag).length === 0, 'the loop is gone');
  });

  it('a fork bomb (with processes that leave the group and ignore signals) is stopped by the timeout, every process gone', async () => {
    const tag = token();
    const { call } = bash();
    // Capped at 48 processes (counted in the sandbox's own /proc) to spare the shared machine: as
    // root no RLIMIT_NPROC applies. Each one keeps forking copies of itself and a setsid'd sleeper.
    const bomb = `trap '' TERM HUP INT; f() { while :; do set -- /proc/[0-9]*; if [ $# -lt 48 ]; then f & setsid bash -c 'trap "" TERM HUP; sleep 600; :' ${tag} & fi; done; }; f # ${tag}`;
    const result = call({ command: bomb, timeout_ms: 1500 });
    const ns = await started(tag, result);
    await eventually(() => processesIn(ns).length >= 10 || processesIn(ns).length === 0, 'the bomb spreads');
    const out = await result;
    expect(out).toMatchObject({
      summary: 'Command timed out after 1500 ms; it was killed with all its processes',
      is_error: true,
    });
    await eventually(
      () => processesIn(ns).length === 0 && processesWith(tag).length === 0,
      'every process of the bomb is gone',
    );
  });

  it("cancel (the call's signal) kills the whole tree; the result says it was cancelled", async () => {
    const tag = token();
    const { call } = bash();
    const abort = new AbortController();
    const result = call(
      { command: `echo started; sleep 600 & setsid bash -c 'sleep 600; :' ${tag} & wait # ${tag}` },
      abort.signal,
    );
    // The setsid'd shell: by then `echo started` has run. (Counting processes with the tag is not
    // enough: bwrap, the namespace's first process, carries the command line too.)
    const ns = await started(tag, result, 1, (cmd) => cmd.startsWith('bash -c sleep 600'));
    abort.abort();
    expect(await result).toEqual({
      summary: 'Command was cancelled; it was killed with all its processes',
      content: 'started\n',
      is_error: true,
    });
    await eventually(() => processesIn(ns).length === 0 && processesWith(tag).length === 0, 'the tree is gone');
    // Already cancelled: nothing is started.
    expect(await call({ command: 'echo never' }, abort.signal)).toEqual({
      summary: 'Command was cancelled; it was killed with all its processes',
      is_error: true,
    });
  });

  it('background jobs end with the command: nothing outlives the call', async () => {
    const tag = token();
    const { call } = bash();
    const out = await call({
      command: `(setsid bash -c 'sleep 600; :' ${tag} &); nohup sleep 600 >/dev/null 2>&1 & echo detached`,
    });
    expect(out).toEqual({ summary: 'Command exited with code 0', content: 'detached\n' });
    await eventually(() => processesWith(tag).length === 0, 'the background job is gone');
  });
});

describeSandboxed('Bash output', () => {
  it('interleaves stdout and stderr in the order they were written', async () => {
    const { call } = bash();
    const out = await call({ command: 'for i in 1 2 3; do echo out$i; echo err$i >&2; done; printf tail >&2' });
    expect(out).toEqual({ summary: 'Command exited with code 0', content: 'out1\nerr1\nout2\nerr2\nout3\nerr3\ntail' });
  });

  it('caps huge output, keeping head and tail and saying exactly how much was dropped', async () => {
    const { call } = bash({ maxOutputBytes: 4096 });
    const total = 3_000_000 + 'BEGIN\n'.length + '\nEND\n'.length;
    const out = await call({ command: "echo BEGIN; head -c 3000000 /dev/zero | tr '\\0' x; printf '\\nEND\\n'" });
    const content = out.content!;
    expect(Buffer.byteLength(content)).toBeLessThanOrEqual(4096);
    expect(content).toMatch(/^BEGIN\nx+\n\n\[\.\.\. \d+ bytes of output dropped \.\.\.\]\n\nx+\nEND\n$/);
    const dropped = Number(/\[\.\.\. (\d+) bytes/.exec(content)![1]);
    const kept = Buffer.byteLength(content.replace(/\n\n\[\.\.\. \d+ bytes of output dropped \.\.\.\]\n\n/, ''));
    expect(dropped + kept).toBe(total);
    expect(out.summary).toBe(`Command exited with code 0 (output cut: ${kept} of ${total} bytes shown)`);
    expect(out.is_error).toBeUndefined();
  });

  it('reports exit codes and signals; a non-zero exit is an error result; stdin is empty', async () => {
    const { call } = bash();
    expect(await call({ command: 'echo failing; exit 3' })).toEqual({
      summary: 'Command exited with code 3',
      content: 'failing\n',
      is_error: true,
    });
    expect(await call({ command: 'kill -SEGV $$' })).toEqual({
      summary: 'Command exited with code 139 (SIGSEGV)',
      is_error: true,
    });
    expect(await call({ command: 'cat; echo "stdin was empty"' })).toEqual({
      summary: 'Command exited with code 0',
      content: 'stdin was empty\n',
    });
  });

  it('refuses unusable input with one line', async () => {
    const { call } = bash();
    expect(await call({ command: 'echo a\0b' })).toEqual({
      summary: 'the command contains a NUL byte',
      is_error: true,
    });
    expect(await call({ command: `echo ${'y'.repeat(100_001)}` })).toEqual({
      summary: 'the command is too long (100006 bytes, at most 100000): write a script file and run it',
      is_error: true,
    });
    expect(await call({ command: '' })).toMatchObject({
      is_error: true,
      summary: expect.stringMatching(/^Invalid argument/),
    });
  });
});
