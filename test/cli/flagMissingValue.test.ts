import { describe, expect, it } from '@jest/globals';
import { makeProject } from '../support/startTestPod.js';
import { yoi } from '../support/runCli.js';

/**
 * Found by a tester: `yoi send --pod` said `Flag --pod expects a value` with no code (`"code":
 * null` with --json): oclif throws that one as a plain error, not a parse error.
 */

const dir = makeProject();

describe('a flag without its value', () => {
  it('is a usage error: one line with YOI_ERR_USAGE, exit code 2', () => {
    const r = yoi(['send', '--pod'], { cwd: dir });
    expect(r.stderr).toBe('yoi: Flag --pod expects a value [YOI_ERR_USAGE]\n');
    expect(r.status).toBe(2);
  });

  it('with --json, the error object carries the code', () => {
    const r = yoi(['send', '--json', '--pod'], { cwd: dir });
    expect(JSON.parse(r.stdout)).toEqual({
      error: { code: 'YOI_ERR_USAGE', message: 'Flag --pod expects a value', exit_code: 2 },
    });
    expect(r.status).toBe(2);
  });
});
