import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { isPidAlive } from '../../core/pod/podFiles.js';
import type { Event } from '../../core/protocol/index.js';
import { sessionIds } from '../support/logReplay.js';
import { historyAndReplay, lockAllocations, doubledRunEnds, tempFilesUnder } from '../support/killCheck.js';
import { RunLedger } from '../support/runLedger.js';
import { startPodProcess } from '../support/runCli.js';
import { faultCount, faultSeed, seededRandom } from '../support/seededRandom.js';
import { makeProject } from '../support/startTestPod.js';
import { waitUntil } from '../support/waitUntil.js';

/**
 * SIGKILL at seeded points of a run, of a compaction and of a spawn, against real pod processes
 * on the scripted provider. After every kill, `--resume` must restore every run that had ended
 * (as its client saw it), with one `run_end` per run in the log, the log replaying to the live
 * history, no temp file left behind, and scope.lock naming only live pods. `YOI_FAULT_SEED`
 * replays a failure; `YOI_FAULT_SCALE` multiplies the kills for bench runs.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Reply = {
  text?: string;
  chunks?: string[];
  delay_ms?: number;
  tool_calls?: { name: string; arguments: Record<string, unknown> }[];
};
const terminal = (e: Event) => e.event === 'run_end' || (e.event === 'error' && e.request_id === undefined);
const texts = (history: unknown[], role: string) =>
  history
    .filter((i: any) => i.type === 'message' && i.role === role)
    .map((i: any) => i.content.map((c: any) => c.text).join(''));

function project(config: Record<string, unknown> = {}) {
  const dir = fs.realpathSync(
    makeProject({
      'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 'script.{pod}.json' }, ...config }),
      'src/a.ts': 'a\n',
    }),
  );
  const run = path.join(dir, 'run');
  const env = { YOI_RUNTIME_DIR: run };
  cleanups.push(() => {
    // Children are detached: they do not die with their parent.
    for (const a of lockAllocations(run)) {
      try {
        process.kill(a.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  });
  return {
    dir,
    run,
    env,
    cli: { cwd: dir, env },
    sessions: path.join(dir, '.yoi', 'sessions'),
    script: (pod: string, replies: Reply[]) =>
      fs.writeFileSync(path.join(dir, `script.${pod}.json`), JSON.stringify(replies)),
    start: async (args: string[], onEvent?: (e: Event) => void) => {
      const pod = await startPodProcess(args, { cwd: dir, env });
      cleanups.push(() => void pod.child.kill('SIGKILL'));
      const client = await PodClient.connect({
        socketPath: pod.socket,
        clientName: 'test/driver',
        requestTimeoutMs: 30_000,
        ...(onEvent ? { onEvent } : {}),
      });
      cleanups.push(() => client.close());
      return { pod, client };
    },
  };
}
type Project = ReturnType<typeof project>;

/** What must hold after a kill and a restart with --resume. */
async function checkRestored(
  p: Project,
  client: PodClient,
  ended: { input: string; reply: string }[],
  pod = 'default',
) {
  const { live, replayed, chain } = await historyAndReplay(p.cli, client.welcome!.session_id, pod);
  expect(chain).toBe('intact');
  expect(replayed).toEqual(live);
  const users = texts(live, 'user');
  const replies = texts(live, 'assistant');
  for (const run of ended) {
    expect([run.input, users.includes(run.input)]).toEqual([run.input, true]);
    expect([run.reply, replies.includes(run.reply)]).toEqual([run.reply, true]);
  }
  expect(doubledRunEnds(p.sessions)).toBe(0);
  // Stale temp files go at start (in the background for the tools' ones): wait, bounded.
  await waitUntil(
    () => tempFilesUnder(p.dir).length === 0,
    `no temp files left (${tempFilesUnder(p.dir).join(', ')})`,
    30_000,
  );
  for (const a of lockAllocations(p.run)) expect([a.pod_name, isPidAlive(a.pid)]).toEqual([a.pod_name, true]);
  return live;
}

/** Starts `root` again (resuming its session if it has one) and runs a ListPods turn to its end. */
async function restartAndListPods(p: Project) {
  p.script('root', [{ tool_calls: [{ name: 'ListPods', arguments: {} }] }, { text: 'listed' }]);
  // Killed before its first input reached the log, the parent has no session to resume.
  const again = await p.start([
    '--name',
    'root',
    ...((await sessionIds(p.cli, 'root')).length > 0 ? ['--resume'] : []),
  ]);
  const listed = again.client.waitFor(terminal, 60_000);
  await again.client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'list' }] } });
  expect(await listed).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
  return again;
}

describe('SIGKILL at seeded points', () => {
  it('of runs (streamed text, tool calls, atomic writes): every ended run restored, one run_end each, the log replays, no temp files', async () => {
    const seed = faultSeed(21);
    const rand = seededRandom(seed);
    const kills = faultCount(3);
    const p = project();
    const ended: { input: string; reply: string }[] = [];
    let resume: string[] = [];
    for (let round = 0; round <= kills; round++) {
      const runs = 3;
      const script: Reply[] = [];
      for (let r = 0; r < runs; r++) {
        script.push({
          tool_calls: [
            {
              name: 'Write',
              arguments: { file_path: `out/${round}-${r}.txt`, content: 'x'.repeat(rand.int(1, 4_000_000)) },
            },
          ],
        });
        script.push({ chunks: ['done ', `${round}-${r}`] });
      }
      p.script('default', script);
      const killAt = rand.int(1, 12 * runs);
      let seen = 0;
      const ledger = new RunLedger();
      let pid = 0;
      const { pod, client } = await p.start(resume, (e) => {
        ledger.onEvent(e);
        if (round < kills && e.seq !== undefined && ++seen === killAt) process.kill(pid, 'SIGKILL');
      });
      pid = pod.child.pid!;
      if (round > 0) await checkRestored(p, client, ended);
      if (round === kills) break;
      for (let r = 0; r < runs && pod.child.exitCode === null && pod.child.signalCode === null; r++) {
        const input = `run ${round}-${r}`;
        const end = client.waitFor(terminal, 60_000);
        end.catch(() => undefined); // the kill closes the connection
        const outcome = await client
          .request({ method: 'run', params: { input: [{ kind: 'text', content: input }] } })
          .then(() => end)
          .catch(() => undefined);
        if (outcome?.event === 'run_end' && outcome.data.result === 'finished')
          ended.push({ input, reply: `done ${round}-${r}` });
        else break;
      }
      if (pod.child.exitCode === null && pod.child.signalCode === null) pod.child.kill('SIGKILL'); // at rest: a kill point too
      await pod.exited;
      expect([`seed ${seed} round ${round}`, ledger.violations]).toEqual([`seed ${seed} round ${round}`, []]);
      resume = ['--resume'];
    }
    expect(ended.length).toBeGreaterThan(0);
  }, 300_000);

  it('of compactions: --resume gets the old session whole or the new one whole, never a torn one or a temp file', async () => {
    const seed = faultSeed(22);
    const rand = seededRandom(seed);
    const kills = faultCount(2);
    const p = project();
    const ended: { input: string; reply: string }[] = [];
    const outcomes: string[] = [];
    let resume: string[] = [];
    for (let round = 0; round <= kills; round++) {
      p.script('default', [{ text: `hello ${round}` }, { text: `SUMMARY ${round}`, delay_ms: 150 }]);
      const events: Event[] = [];
      const { pod, client } = await p.start(resume, (e) => events.push(e));
      if (round > 0)
        await checkRestored(
          p,
          client,
          ended.filter((r) => !r.reply.startsWith('SUMMARY')),
        );
      if (round === kills) break;
      const end = client.waitFor(terminal, 60_000);
      await client.request({
        method: 'run',
        params: { input: [{ kind: 'text', content: `before compaction ${round}` }] },
      });
      expect(await end).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
      const { live: before } = await historyAndReplay(p.cli, client.welcome!.session_id);
      const oldId = client.welcome!.session_id;
      // The kill lands before, during or after the summary request (150 ms), or after the switch.
      const delay = rand.int(0, 400);
      await client.request({ method: 'compact' });
      await new Promise((r) => setTimeout(r, delay)); // a seeded kill point, not a synchronisation
      pod.child.kill('SIGKILL');
      await pod.exited;
      const done = events.find((e) => e.event === 'compact_done');
      const again = await p.start(['--resume']);
      const { live } = await historyAndReplay(p.cli, again.client.welcome!.session_id);
      if (again.client.welcome!.session_id === oldId) {
        expect([`seed ${seed} round ${round}: compact_done seen`, done]).toEqual([
          `seed ${seed} round ${round}: compact_done seen`,
          undefined,
        ]);
        expect(live).toEqual(before);
        outcomes.push('old');
      } else {
        expect(JSON.stringify(live)).toContain(`SUMMARY ${round}`);
        if (done?.event === 'compact_done') expect(again.client.welcome!.session_id).toBe(done.data.new_session_id);
        outcomes.push('new');
      }
      ended.push({ input: `before compaction ${round}`, reply: `hello ${round}` });
      // The compacted session no longer holds the old turns verbatim: check only what it keeps.
      if (outcomes.at(-1) === 'new') ended.length = 0;
      await again.client.close();
      again.pod.child.kill('SIGKILL');
      await again.pod.exited;
      resume = ['--resume'];
    }
    expect(outcomes).toHaveLength(kills);
  }, 300_000);

  it("of spawns: the parent restarts with its registry, and after ListPods scope.lock names live pods only, each in its spawner's registry", async () => {
    const seed = faultSeed(23);
    const rand = seededRandom(seed);
    const kills = faultCount(2);
    const p = project();
    const registry = () => {
      try {
        return (
          JSON.parse(fs.readFileSync(path.join(p.run, 'root', 'spawned_pods.json'), 'utf8')) as { pod_name: string }[]
        ).map((r) => r.pod_name);
      } catch {
        return [];
      }
    };
    for (let round = 0; round < kills; round++) {
      const resume = (await sessionIds(p.cli, 'root')).length > 0 ? ['--resume'] : [];
      p.script('root', [
        {
          tool_calls: [
            {
              name: 'SpawnPod',
              arguments: { name: `child${round}`, task: 'answer', scope: [{ target: `src`, permission: 'read' }] },
            },
          ],
        },
        { text: 'spawned' },
      ]);
      p.script(`child${round}`, [{ text: 'child answer' }]);
      const killAt = rand.int(1, 10);
      let seen = 0;
      let pid = 0;
      const { pod, client } = await p.start(['--name', 'root', ...resume], (e) => {
        if (e.seq !== undefined && ++seen === killAt) process.kill(pid, 'SIGKILL');
      });
      pid = pod.child.pid!;
      const end = client.waitFor(terminal, 60_000);
      end.catch(() => undefined); // the kill closes the connection
      await client
        .request({ method: 'run', params: { input: [{ kind: 'text', content: `spawn ${round}` }] } })
        .then(() => end)
        .catch(() => undefined);
      if (pod.child.exitCode === null && pod.child.signalCode === null) pod.child.kill('SIGKILL');
      await pod.exited;

      // The restarted parent: ListPods health-checks its children and reclaims what a kill left.
      const again = await restartAndListPods(p);
      const { live, replayed, chain } = await historyAndReplay(p.cli, again.client.welcome!.session_id, 'root');
      expect(chain).toBe('intact');
      expect(replayed).toEqual(live);
      expect(doubledRunEnds(p.sessions)).toBe(0);
      const allocations = lockAllocations(p.run);
      const what = `seed ${seed} round ${round} (kill at event ${killAt})`;
      for (const a of allocations) expect([what, a.pod_name, isPidAlive(a.pid)]).toEqual([what, a.pod_name, true]);
      expect([
        what,
        allocations
          .filter((a) => a.pod_name !== 'root')
          .map((a) => a.pod_name)
          .sort(),
      ]).toEqual([what, registry().sort()]);
      for (const a of allocations.filter((a) => a.pod_name !== 'root'))
        expect([what, a.delegated_from]).toEqual([what, 'root']);
      expect(tempFilesUnder(p.dir)).toEqual([]);
      await again.client.close();
      again.pod.child.kill('SIGKILL');
      await again.pod.exited;
    }
  }, 300_000);

  // Replays a kill CI hit: the parent died after reserving a child's scope, before recording the
  // child, and the restarted parent's ListPods (all records alive) left the reservation to a dead pid.
  it('of a spawn in progress: killed while its child starts, the restarted parent leaves scope.lock and its registry agreeing, live pods only', async () => {
    const p = project();
    const registryFile = path.join(p.run, 'root', 'spawned_pods.json');
    const registry = () => {
      try {
        return (JSON.parse(fs.readFileSync(registryFile, 'utf8')) as { pod_name: string }[]).map((r) => r.pod_name);
      } catch {
        return [];
      }
    };
    p.script('root', [
      {
        tool_calls: [
          {
            name: 'SpawnPod',
            arguments: { name: 'kid', task: 'answer', scope: [{ target: 'src', permission: 'read' }] },
          },
        ],
      },
      { text: 'spawned' },
    ]);
    p.script('kid', [{ text: 'kid answer' }]);
    const first = await p.start(['--name', 'root']);
    void first.client
      .request({ method: 'run', params: { input: [{ kind: 'text', content: 'spawn' }] } })
      .catch(() => undefined);
    // Kill the parent once the child's scope is reserved: before, while or after the child comes up.
    await waitUntil(() => lockAllocations(p.run).some((a) => a.pod_name === 'kid'), "the child's reservation");
    first.pod.child.kill('SIGKILL');
    await first.pod.exited;

    const again = await restartAndListPods(p);
    const allocations = lockAllocations(p.run);
    for (const a of allocations) expect([a.pod_name, isPidAlive(a.pid)]).toEqual([a.pod_name, true]);
    const children = allocations.filter((a) => a.pod_name !== 'root').map((a) => a.pod_name);
    // Either the child adopted its scope before the kill (alive, recorded) or it is gone from both.
    expect(children).toEqual(registry());
    expect(allocations.filter((a) => a.pod_name !== 'root').every((a) => a.delegated_from === 'root')).toBe(true);
    await again.client.close();
    again.pod.child.kill('SIGKILL');
    await again.pod.exited;
  }, 120_000);
});
