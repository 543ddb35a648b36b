import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import type { Event } from '../../core/protocol/index.js';
import { isTempFileName } from '../../plugins/tools/shared/tempFiles.js';
import { JOURNAL_DIR } from '../../plugins/tools/shared/TempJournal.js';
import { fileTools } from '../plugins/tools/toolHarness.js';
import { startPodProcess } from '../support/runCli.js';
import { makeProject } from '../support/startTestPod.js';

/**
 * The interrupted-write attack, replayed on real processes: a pod is SIGKILLed while its Write
 * of a large file is between creating the temp file and renaming it (9 of 10 such kills used
 * to leave a hidden temp file of up to 25 MB that `--resume` kept and Glob listed).
 */
const BIG = 'x'.repeat(8 * 1024 * 1024);
const ATTEMPTS = 5;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const temps = (dir: string) => fs.readdirSync(dir).filter(isTempFileName);

/** Starts a pod whose model writes a big file, kills it as soon as the temp file appears. */
async function killMidWrite(dir: string, env: NodeJS.ProcessEnv, target: string): Promise<void> {
  fs.writeFileSync(
    path.join(dir, 's.json'),
    JSON.stringify([{ tool_calls: [{ name: 'Write', arguments: { file_path: target, content: BIG } }] }]),
  );
  const pod = await startPodProcess([], { cwd: dir, env });
  cleanups.push(() => pod.child.kill('SIGKILL'));
  const watcher = fs.watch(dir, (_event, name) => {
    if (name && isTempFileName(name.toString())) pod.child.kill('SIGKILL');
  });
  try {
    const client = await PodClient.connect({ socketPath: pod.socket, protocol: 2, clientName: 'test/1' });
    const finished = new Promise<Event>((resolve) => client.onEvent((e) => e.event === 'run_end' && resolve(e)));
    await client
      .request({ method: 'run', params: { input: [{ kind: 'text', content: 'write it' }] } })
      .catch(() => undefined);
    await Promise.race([pod.exited, finished]); // killed mid-write, or (rarely) the write won the race
    pod.child.kill('SIGKILL');
    await pod.exited;
    await client.close().catch(() => undefined);
  } finally {
    watcher.close();
  }
}

describe('a pod killed during a Write', () => {
  it('leaves a temp file that Glob and Grep never list and that the next start removes', async () => {
    const dir = fs.realpathSync(
      makeProject({ 'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }) }),
    );
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
    for (let attempt = 0; attempt < ATTEMPTS && temps(dir).length === 0; attempt++)
      await killMidWrite(dir, env, `big-${attempt}.txt`);
    const left = temps(dir);
    expect(left.length).toBeGreaterThan(0); // the kill landed mid-write at least once in ATTEMPTS
    expect(fs.readdirSync(path.join(dir, 'run', JOURNAL_DIR)).length).toBeGreaterThan(0);

    // While it is there, the file tools do not show it.
    const { call } = fileTools(dir);
    const glob = await call('Glob', { pattern: '**/*' });
    expect(glob.content ?? '').not.toContain('.yoi-tmp');
    expect((await call('Glob', { pattern: '**/.*' })).content ?? '').not.toContain('.yoi-tmp');
    expect((await call('Grep', { pattern: 'x', output_mode: 'count' })).content ?? '').not.toContain('.yoi-tmp');

    // The restart (resuming the killed session) removes it, before it accepts a client.
    const again = await startPodProcess(['--resume'], { cwd: dir, env });
    cleanups.push(() => again.child.kill('SIGKILL'));
    expect(temps(dir)).toEqual([]);
    expect(fs.readdirSync(path.join(dir, 'run', JOURNAL_DIR))).toEqual([]);
    again.child.kill('SIGTERM');
    await again.exited;
  }, 120_000);
});
