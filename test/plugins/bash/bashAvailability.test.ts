import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { bashSandboxed } from '../../../plugins/bash/bashTool.js';
import { probeSandbox } from '../../../plugins/bash/probeSandbox.js';
import { RawClient } from '../../support/rawClient.js';
import { startTestPod, type TestPod } from '../../support/startTestPod.js';
import { bashFixture, eventually, processesWith, tempTree, token } from './bashHarness.js';

const trees: ReturnType<typeof tempTree>[] = [];
let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
  for (const t of trees.splice(0)) t.remove();
});
function tree() {
  const t = tempTree();
  trees.push(t);
  return t;
}

/** A stand-in for bwrap on a kernel that refuses user namespaces: says so as bwrap does and fails. */
function refusingBwrap(dir: string): string {
  const file = path.join(dir, 'bwrap');
  fs.writeFileSync(
    file,
    '#!/bin/sh\necho "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n',
    { mode: 0o755 },
  );
  return file;
}

describe('where no sandbox can be made', () => {
  it('a missing bwrap: Bash is not offered, and the pod says why once', () => {
    const t = tree();
    const missing = path.join(t.root, 'no-such-bwrap');
    const { tool, alerts, services } = bashFixture(t.project, { options: { bwrapPath: missing } });
    expect(tool).toBeUndefined();
    expect(alerts).toEqual([
      `yoi:bash: Bash is not offered: bubblewrap is not installed at ${missing}; set bash.sandbox: 'off' to run commands without a sandbox`,
    ]);
    expect(bashSandboxed(services)).toBeUndefined();
    expect(probeSandbox(undefined, { network: false }, { PATH: t.root })).toEqual({
      ok: false,
      reason: 'bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)',
    });
  });

  it("user namespaces refused: bwrap's own reason is given", () => {
    const t = tree();
    const { tool, alerts } = bashFixture(t.project, { options: { bwrapPath: refusingBwrap(t.root) } });
    expect(tool).toBeUndefined();
    expect(alerts).toEqual([
      "yoi:bash: Bash is not offered: bubblewrap cannot create a sandbox here: bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.; set bash.sandbox: 'off' to run commands without a sandbox",
    ]);
  });

  it('a bwrap others may replace is not trusted', () => {
    const t = tree();
    const bwrap = refusingBwrap(t.root);
    fs.chmodSync(bwrap, 0o777);
    const { tool, alerts } = bashFixture(t.project, { options: { bwrapPath: bwrap } });
    expect(tool).toBeUndefined();
    expect(alerts).toEqual([
      `yoi:bash: Bash is not offered: bubblewrap at ${bwrap} is writable by other users; not trusted; set bash.sandbox: 'off' to run commands without a sandbox`,
    ]);
  });

  it('in a pod: the tool list leaves Bash out, one alert is replayed to every client, the pod runs on', async () => {
    const t = tree();
    const bwrap = refusingBwrap(t.root);
    const { defaultPlugins } = await import('../../../plugins/index.js');
    const { bashTool } = await import('../../../plugins/bash/bashTool.js');
    tp = await startTestPod({
      plugins: [...defaultPlugins({ exclude: ['yoi:bash'] }), bashTool({ bwrapPath: bwrap })],
    });
    expect(tp.pod.greeting.tools).not.toContain('Bash');
    expect(tp.pod.greeting.tools).toContain('Grep');
    for (let i = 0; i < 2; i++) {
      const c = await RawClient.connect(tp.socket);
      c.write('{"method":"get_history"}\n');
      await c.until((e) => e.event === 'history');
      const alerts = c.events.flatMap((e) => (e.event === 'alert' ? [e.data.message] : []));
      expect(alerts.filter((m) => m.startsWith('yoi:bash:'))).toEqual([
        expect.stringContaining('Bash is not offered: bubblewrap cannot create a sandbox here'),
      ]);
      c.destroy();
    }
  });
});

describe("sandbox: 'off'", () => {
  it("offers Bash marked sandboxed: false, says so at start, and runs commands unsandboxed in the pod's cwd", async () => {
    const t = tree();
    const { tool, alerts, call, services } = bashFixture(t.project, {
      options: { sandbox: 'off', bwrapPath: path.join(t.root, 'no-such-bwrap') },
    });
    expect(tool?.sandboxed).toBe(false);
    expect(bashSandboxed(services)).toBe(false);
    expect(tool?.description).toContain('WITHOUT a sandbox');
    expect(alerts).toEqual([
      "yoi:bash: Bash runs commands without a sandbox (bash.sandbox: 'off'): they can read and write whatever this user can",
    ]);
    // Outside the scope is writable: nothing isolates the command.
    const outside = path.join(t.root, 'outside.txt');
    expect(await call({ command: `pwd; echo out > ${outside}; echo err >&2` })).toEqual({
      summary: 'Command exited with code 0',
      content: `${t.project}\nerr\n`,
    });
    expect(fs.readFileSync(outside, 'utf8')).toBe('out\n');
  });

  it('still kills the process group at the timeout, and ends background jobs of the group', async () => {
    const t = tree();
    const tag = token();
    const { call } = bashFixture(t.project, { options: { sandbox: 'off' } });
    const out = await call({ command: `bash -c 'sleep 600; :' ${tag} & while :; do :; done`, timeout_ms: 300 });
    expect(out).toEqual({
      summary: 'Command timed out after 300 ms; it was killed with all its processes',
      is_error: true,
    });
    await eventually(() => processesWith(tag).length === 0, 'the group is gone');
    expect(await call({ command: `(bash -c 'sleep 600; :' ${tag} &); echo back` })).toEqual({
      summary: 'Command exited with code 0',
      content: 'back\n',
    });
    await eventually(() => processesWith(tag).length === 0, 'the background job of the group is gone');
  });
});
