import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import type { Event } from '../../../core/protocol/index.js';
import { startPod, type TestPodHandle } from '../../../testing/startPod.js';

const pods: TestPodHandle[] = [];
afterEach(async () => {
  for (const p of pods.splice(0)) await p.stop();
});

async function podWithOneTurn() {
  const pod = await startPod({ config: { model: { provider: 'echo' }, sessions: { dir: 'sessions' } } });
  pods.push(pod);
  const alerts: string[] = [];
  pod.client.onEvent((e: Event) => {
    if (e.event === 'alert') alerts.push(`${e.data.level} ${e.data.message}`);
  });
  await pod.run('first turn');
  const dir = path.join(pod.dir, 'sessions');
  const [name] = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  return { pod, alerts, file: path.join(dir, name) };
}

const detachedAlert = (pod: TestPodHandle) =>
  pod.client.waitFor((e) => e.event === 'alert' && e.data.message.includes('while the pod writes it'), 10_000);

it('a session log deleted from outside is said once, with what to do; the pod keeps serving', async () => {
  const { pod, alerts, file } = await podWithOneTurn();
  expect(alerts).toEqual([]);
  fs.unlinkSync(file);
  const said = detachedAlert(pod);
  await pod.run('second turn');
  await said;
  await pod.run('third turn');
  expect(alerts).toEqual([
    `error the session log ${file} was deleted while the pod writes it: the turns from here on are lost when the pod stops; \`yoi compact\` starts a new log that holds the whole conversation`,
  ]);
});

it('a session log moved away or replaced is said too', async () => {
  const { pod, alerts, file } = await podWithOneTurn();
  fs.renameSync(file, `${file}.moved`);
  fs.writeFileSync(file, ''); // a look-alike at the name is not the file the pod writes
  const said = detachedAlert(pod);
  await pod.run('second turn');
  await said;
  expect(alerts).toEqual([
    expect.stringMatching(
      /^error the session log .* was moved or replaced while the pod writes it: the turns from here on go to the file it was moved to;/,
    ),
  ]);
  expect(fs.readFileSync(`${file}.moved`, 'utf8')).toContain('second turn');
});

it('a session log moved away with nothing left at its name is said as moved, not deleted', async () => {
  const { pod, alerts, file } = await podWithOneTurn();
  fs.renameSync(file, `${file}.moved`);
  const said = detachedAlert(pod);
  await pod.run('second turn');
  await said;
  expect(alerts).toEqual([
    expect.stringMatching(/^error the session log .* was moved or replaced while the pod writes it/),
  ]);
});
