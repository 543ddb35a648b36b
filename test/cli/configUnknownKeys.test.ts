import { describe, expect, it } from '@jest/globals';
import { makeProject } from '../support/startTestPod.js';
import { yoi } from '../support/runCli.js';

/**
 * Found by a tester: a yoi.config.json with 200,000 unknown keys made `yoi config` print one
 * 4 MB line naming every key. A few are named, the rest counted, as other issues are.
 */

describe('a config with many unknown keys', () => {
  it('names the first few and counts the rest, in one short line', () => {
    const config: Record<string, number> = {};
    for (let i = 0; i < 200_000; i++) config[`k${i}`] = 1;
    const dir = makeProject({ 'yoi.config.json': JSON.stringify(config) });
    const r = yoi(['config'], { cwd: dir });
    expect(r.stderr).toBe(
      'yoi: yoi.config.json: k0: unknown key, k1: unknown key, k2: unknown key (and 199997 more) [YOI_ERR_CONFIG]\n',
    );
    expect(r.status).toBe(1);
  });

  it('two typos are both named, with their suggestions', () => {
    const dir = makeProject({ 'yoi.config.json': JSON.stringify({ modle: {}, nmae: 'x' }) });
    expect(yoi(['config'], { cwd: dir }).stderr).toBe(
      'yoi: yoi.config.json: modle: unknown key (did you mean "model"?), nmae: unknown key (did you mean "name"?) [YOI_ERR_CONFIG]\n',
    );
  });
});
