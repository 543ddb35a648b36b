import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { podExitLine } from '../../cli/podExitLine.js';

/** What a real Node process writes to stderr when it dies of `code`. */
const stderrOf = (code: string) =>
  spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', timeout: 30_000 }).stderr;

/**
 * A detached pod that died took its log's last line as the reason: after an uncaught rejection
 * that is Node's version trailer, and `yoi pod start --detach` said only `Node.js v20.20.2`.
 */
describe('podExitLine', () => {
  it('takes the error Node printed, not its version trailer or the stack', () => {
    const rejected = stderrOf('Promise.reject(new Error("floating"))');
    expect(rejected.trim().split('\n').at(-1)).toMatch(/^Node\.js v/);
    expect(podExitLine(rejected)).toBe('Error: floating');
    expect(podExitLine(stderrOf('throw Object.assign(new TypeError("bad"), { code: "X" })'))).toBe('TypeError: bad');
    expect(podExitLine(stderrOf('Promise.reject(5)'))).toMatch(
      /^UnhandledPromiseRejection: .*The promise rejected with the reason "5"\.$/,
    );
  });

  it("prefers the pod's own coded error, and falls back to its last line", () => {
    const own = `yoi: no model configured: using the offline echo provider\nyoi: yoi.config.ts: bad [YOI_ERR_CONFIG]\n`;
    expect(podExitLine(`${own}\nNode.js v20.20.2\n`)).toBe('yoi: yoi.config.ts: bad [YOI_ERR_CONFIG]');
    expect(podExitLine('starting\nsomething went wrong\n\n')).toBe('something went wrong');
    expect(podExitLine('\nNode.js v20.20.2\n')).toBeUndefined();
    expect(podExitLine('')).toBeUndefined();
  });
});
