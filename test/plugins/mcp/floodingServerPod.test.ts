// A pod process whose stdio MCP server stops reading while it floods the pod with requests: the
// pod restarts the server once 10,000 answers wait for it, as before, and its stderr stays
// quiet. The SDK waited on a `drain` listener per unwritten answer, and Node printed
// "MaxListenersExceededWarning: Possible EventEmitter memory leak detected" into the pod's
// stderr (its log, for a detached pod); now one write at a time waits in the pipe.
import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject } from '../../support/startTestPod.js';
import { startPodProcess, yoiAsync } from '../../support/runCli.js';
import { FLOODING, NODE } from './mcpServers.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

it('restarts a server that stopped reading, with no leak warning on the pod’s stderr', async () => {
  const dir = makeProject({});
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const marker = path.join(dir, 'started');
  fs.writeFileSync(
    path.join(dir, 'yoi.config.json'),
    JSON.stringify({ mcp: { servers: { fl: { command: NODE, args: [FLOODING, 'unread', marker] } } } }),
  );
  const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
  const pod = await startPodProcess(['--name', 'fl'], { cwd: dir, env });
  cleanups.push(async () => {
    pod.child.kill('SIGTERM');
    await pod.exited;
  });
  let listed = '';
  const deadline = Date.now() + 60_000;
  while (!/^fl\tready\t.*, 1 restarts$/m.test(listed)) {
    if (Date.now() > deadline) throw new Error(`no restart: ${listed}`);
    listed = (await yoiAsync(['mcp', 'list', '--pod', 'fl'], { cwd: dir, env })).stdout;
  }
  expect(listed).toMatch(/last error: stopped reading what the pod sends it \(10 MiB or 10,000 messages waiting\)/);
  expect(pod.stderr()).not.toMatch(/MaxListenersExceededWarning/);
  pod.child.kill('SIGTERM');
  expect(await pod.exited).toBe(0);
}, 90_000);
