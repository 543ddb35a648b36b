import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { isPidAlive } from '../../core/pod/podFiles.js';
import type { Event } from '../../core/protocol/index.js';
import { lockAllocations, doubledRunEnds } from '../support/killCheck.js';
import { liveHistory, loggedSession } from '../support/logReplay.js';
import { faultCount, faultSeed, seededRandom } from '../support/seededRandom.js';
import { historyItems, startRootPod } from '../support/rootPodProcess.js';
import { makeProject } from '../support/startTestPod.js';

/**
 * A parent pod SIGKILLed while its children are reporting (real processes: the root started by
 * the CLI, its children by SpawnPod). The children finish; once the parent restarts with
 * `--resume`, each report is in its history exactly once (applied before the kill and logged, or
 * delivered after the restart by the child's outbox), and a child that died meanwhile is
 * reclaimed by ListPods instead (see CONTRIBUTING "Pod tree: reports").
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Reply = { text?: string; delay_ms?: number; tool_calls?: { name: string; arguments: Record<string, unknown> }[] };
const CHILDREN = ['c0', 'c1', 'c2'];
const finished = (name: string) => `Pod \`${name}\` finished a turn.`;

/** How many times each child's turn_ended note is in `history`. */
function reportCounts(history: unknown[]): Record<string, number> {
  const notes = history
    .filter((i: any) => i.type === 'message' && i.role === 'system')
    .map((i: any) => i.content.map((c: any) => c.text).join(''));
  return Object.fromEntries(CHILDREN.map((c) => [c, notes.filter((n) => n.includes(finished(c))).length]));
}

async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100)); // polling a condition, bounded by the deadline
  }
}

describe('a parent killed while its children report', () => {
  it('reports arrive exactly once after the restart, or were applied before the kill; a child that died meanwhile is reclaimed', async () => {
    const seed = faultSeed(31);
    const rand = seededRandom(seed);
    const rounds = faultCount(1);
    for (let round = 0; round < rounds; round++) {
      const dir = fs.realpathSync(
        makeProject({
          'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 'script.{pod}.json' } }),
          'src/a.ts': 'a\n',
        }),
      );
      const run = path.join(dir, 'run');
      const env = { YOI_RUNTIME_DIR: run };
      const cli = { cwd: dir, env };
      cleanups.push(() => {
        for (const a of lockAllocations(run)) {
          try {
            process.kill(a.pid, 'SIGKILL');
          } catch {
            // gone already
          }
        }
      });
      const script = (pod: string, replies: Reply[]) =>
        fs.writeFileSync(path.join(dir, `script.${pod}.json`), JSON.stringify(replies));
      const doomed = rand.pick(CHILDREN);
      script('root', [
        {
          tool_calls: CHILDREN.map((name) => ({
            name: 'SpawnPod',
            arguments: { name, task: `report, ${name}`, scope: [{ target: 'src', permission: 'read' }] },
          })),
        },
        { text: 'spawned' },
      ]);
      // The doomed child is still in its turn when it is killed; the others report at seeded times.
      for (const c of CHILDREN)
        script(c, [{ text: `${c} answers`, delay_ms: c === doomed ? 600_000 : rand.int(100, 3000) }]);
      const start = (args: string[]) => startRootPod(dir, env, args, cleanups);

      const { pod, client } = await start([]);
      const spawned = client.waitFor((e: Event) => e.event === 'run_end', 120_000);
      await client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'spawn three' }] } });
      expect(await spawned).toMatchObject({ data: { result: 'finished' } });
      // Killed once a seeded number (0 or 1) of the reports has been applied.
      const before = rand.int(0, 1);
      await eventually(
        `${before} report(s) in root's history`,
        async () => Object.values(reportCounts(await historyItems(client))).reduce((a, b) => a + b, 0) >= before,
      );
      pod.child.kill('SIGKILL');
      await pod.exited;
      const doomedPid = lockAllocations(run).find((a) => a.pod_name === doomed)!.pid;
      process.kill(doomedPid, 'SIGKILL');

      // Back up: every run (whatever starts it: a report, or a notify) lists its pods.
      script(
        'root',
        Array.from({ length: 10 }, () => [
          { tool_calls: [{ name: 'ListPods', arguments: {} }] },
          { text: 'listed' },
        ]).flat(),
      );
      const again = await start(['--resume']);
      await again.client.request({ method: 'notify', params: { message: 'you were restarted' } });
      const survivors = CHILDREN.filter((c) => c !== doomed);
      const counts = await eventually("every surviving child's report", async () => {
        const c = reportCounts(await historyItems(again.client));
        return survivors.every((s) => c[s] >= 1) && c;
      });
      // A run after every report lists the pods once more: the dead child is reclaimed then at the latest.
      await again.client.request({ method: 'notify', params: { message: 'list your pods' } });
      await eventually(
        'the doomed child reclaimed',
        async () => !lockAllocations(run).some((a) => a.pod_name === doomed),
      ).catch(async (e) => {
        throw new Error(
          `${(e as Error).message}: lock ${JSON.stringify(lockAllocations(run))}, history tail ${JSON.stringify((await historyItems(again.client)).slice(-6))}`,
        );
      });
      // A child's reports go in order through one outbox: once its `shut_down` (SIGTERM) is in,
      // any retry of its turn_ended has arrived before it.
      const stopped = (name: string) => `Pod \`${name}\` has stopped.`;
      for (const s of survivors) process.kill(lockAllocations(run).find((a) => a.pod_name === s)!.pid, 'SIGTERM');
      await eventually("every survivor's shut_down report", async () => {
        const text = JSON.stringify(await historyItems(again.client));
        return survivors.every((s) => text.includes(stopped(s)));
      });
      const final = await liveHistory(cli, 'root');
      const what = `seed ${seed} round ${round} (killed after ${before} report(s), ${doomed} killed too)`;
      expect([what, reportCounts(final)]).toEqual([
        what,
        { ...Object.fromEntries(survivors.map((s) => [s, 1])), [doomed]: 0 },
      ]);
      expect(counts[doomed]).toBe(0);
      expect((await loggedSession(cli, again.client.welcome!.session_id)).history).toEqual(final);
      expect(doubledRunEnds(path.join(dir, '.yoi', 'sessions'))).toBe(0);
      const allocations = lockAllocations(run);
      for (const a of allocations) expect([what, a.pod_name, isPidAlive(a.pid)]).toEqual([what, a.pod_name, true]);
      expect(allocations.map((a) => a.pod_name)).toEqual(['root']); // the stopped released theirs, the dead one was reclaimed
      await again.client.close();
      again.pod.child.kill('SIGKILL');
      await again.pod.exited;
      for (const c of cleanups.splice(0).reverse()) await c();
    }
  }, 300_000);
});
