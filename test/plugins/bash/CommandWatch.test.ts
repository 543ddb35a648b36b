import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import { bashFixture, describeSandboxed, eventually, tempTree } from './bashHarness.js';

const trees: ReturnType<typeof tempTree>[] = [];
afterEach(() => {
  for (const t of trees.splice(0)) t.remove();
});

/** A project whose (absent) `yoi.config.ts` is part of the pod's control plane, as a config name is. */
function podWithAbsentConfigName() {
  const t = tempTree();
  trees.push(t);
  const fixture = bashFixture(t.project);
  fixture.scope.protect([{ path: t.at('yoi.config.ts'), what: 'its config' }]);
  return { t, ...fixture, planted: t.at('yoi.config.ts') };
}

describeSandboxed('CommandWatch: overlapping Bash calls of one pod', () => {
  it('a control-plane path planted by a call abandoned mid-run cannot be kept by the next call (replayed attack)', async () => {
    const { t, call, alerts, planted } = podWithAbsentConfigName();
    // Call 1 plants the config and hangs; the pod gives up on it (its signal aborts, as at the deadline).
    const abandon = new AbortController();
    const first = call({ command: 'echo planted > yoi.config.ts; sleep 100', timeout_ms: 100_000 }, abandon.signal);
    await eventually(() => fs.existsSync(planted), 'call 1 planted the config');
    // Call 2 starts while the planted file exists, then waits for call 1's end (the `go` file) to re-plant it.
    const second = call({
      command: 'touch started; while [ ! -e go ]; do sleep 0.02; done; echo "export default {}" > yoi.config.ts',
    });
    await eventually(() => fs.existsSync(t.at('started')), 'call 2 runs');
    abandon.abort();
    expect((await first).summary).toMatch(/^Command was cancelled/);
    fs.writeFileSync(t.at('go'), '');
    const result = await second;

    expect(fs.existsSync(planted)).toBe(false);
    expect(result.is_error).toBe(true);
    expect(result.summary).toContain(`removed ${planted}: it is part of the pod's control plane (its config)`);
    expect(alerts).toEqual([]);
  });

  it("never removes what existed while no command ran: the user's own file stays", async () => {
    const { call, planted } = podWithAbsentConfigName();
    fs.writeFileSync(planted, 'export default {}\n');
    const result = await call({ command: 'cat yoi.config.ts; echo x > yoi.config.ts' });
    expect(result.content).toMatch(/^export default \{\}\n.*Read-only file system/s);
    expect(fs.readFileSync(planted, 'utf8')).toBe('export default {}\n');
  });

  it('a background job that keeps planting after the command exited is dead before the check', async () => {
    const { call, planted } = podWithAbsentConfigName();
    const result = await call({
      command: '(exec >/dev/null 2>&1; while :; do echo x > yoi.config.ts; done) & sleep 0.2',
    });
    expect(result.summary).toContain(`removed ${planted}`);
    expect(fs.existsSync(planted)).toBe(false);
  });

  it("timeout_ms never exceeds the pod's limits.toolTimeoutMs", async () => {
    const t = tempTree();
    trees.push(t);
    const limits = bashFixture(t.project).services.config!.limits;
    const { call } = bashFixture(t.project, { config: { limits: { ...limits, toolTimeoutMs: 300 } } });
    const result = await call({ command: 'sleep 30', timeout_ms: 600_000 });
    expect(result.summary).toMatch(/^Command timed out after 300 ms/);
  });
});
