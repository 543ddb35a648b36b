import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { startTestPod, type TestPod } from '../support/startTestPod.js';
import { yoiAsync } from '../support/runCli.js';

/**
 * Found by a tester: a status.json that is valid JSON with a wrong field (`"state": 5`) made
 * `yoi pod list` fail with `r[i] is not iterable`, hiding every pod; a bad `socket` showed a
 * live pod as stale. A bad field is unknown; the listing goes on.
 */

let a: TestPod;
let b: TestPod;
beforeAll(async () => {
  a = await startTestPod({ name: 'a' });
  b = await startTestPod({ name: 'b', dir: a.dir });
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
});

const status = (fields: Record<string, unknown>) => () => ({
  pod_name: 'a',
  state: 'idle',
  session_id: 's',
  pid: process.pid,
  socket: a.socket,
  started_at: 1,
  ...fields,
});

describe('yoi pod list with a damaged status.json', () => {
  it.each([
    ['a state that is a number', status({ state: 5 }), '?', `pid ${process.pid}`],
    ['a state that is an object', status({ state: { x: 1 } }), '?', `pid ${process.pid}`],
    ['a socket that is a number', status({ socket: 5 }), 'idle', `pid ${process.pid}`],
    ['a socket that is an object', status({ socket: {} }), 'idle', `pid ${process.pid}`],
    ['an empty socket', status({ socket: '' }), 'idle', `pid ${process.pid}`],
    ['an array', () => [], '?', 'pid -'],
  ])('%s: that pod is listed with what is known, the others as usual', async (_, content, state, pid) => {
    fs.writeFileSync(path.join(a.runtimeDir, 'a', 'status.json'), JSON.stringify(content()));
    const r = await yoiAsync(['pod', 'list'], { cwd: a.dir, env: { YOI_RUNTIME_DIR: a.runtimeDir } });
    expect(r.stderr).toBe('');
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/ {2,}/).slice(0, 3));
    expect(rows).toEqual([
      ['a', state, pid],
      ['b', 'idle', `pid ${process.pid}`],
    ]);
    expect(r.status).toBe(0);
  });
});
