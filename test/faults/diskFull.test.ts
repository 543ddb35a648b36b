import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import type { Alert, Event, Segment } from '../../core/protocol/index.js';
import { liveHistory, loggedSession } from '../support/logReplay.js';
import { RunLedger } from '../support/runLedger.js';
import { startPodProcess } from '../support/runCli.js';
import { smallTmpfs } from '../support/smallTmpfs.js';
import { makeProject } from '../support/startTestPod.js';
import { waitUntil } from '../support/waitUntil.js';

/**
 * The disk holding the session log fills up under a pod process (a real 512 KiB tmpfs). The pod
 * says so once, keeps serving, refuses input it could not record, keeps what it could not write in
 * memory and writes it when space returns: the log then replays to the live history, also after
 * a SIGKILL and `--resume`.
 */
const fs = smallTmpfs('512k');
if ('skip' in fs) console.warn(`skipped: ${fs.skip}`);
const withTmpfs = 'skip' in fs ? describe.skip : describe;
afterAll(() => {
  if (!('skip' in fs)) fs.unmount();
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const text = (content: string): Segment => ({ kind: 'text', content });
const paste = (content: string): Segment => ({
  kind: 'paste',
  id: 1,
  chars: content.length,
  lines: content.split('\n').length,
  content,
});

withTmpfs('a full disk under the session log', () => {
  it('one alert, the pod keeps serving, new input is refused, nothing acknowledged is lost, and writing resumes when space returns', async () => {
    if ('skip' in fs) return;
    const sessions = path.join(fs.dir, 'sessions');
    const dir = makeProject({
      'yoi.config.json': JSON.stringify({ model: { provider: 'echo' }, sessions: { dir: sessions } }),
    });
    const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
    const cli = { cwd: dir, env };
    const start = async (args: string[] = []) => {
      const pod = await startPodProcess(args, { cwd: dir, env });
      cleanups.push(() => void pod.child.kill('SIGKILL'));
      const ledger = new RunLedger();
      const alerts: Alert[] = [];
      const onEvent = (e: Event) => {
        ledger.onEvent(e);
        if (e.event === 'alert') alerts.push(e.data);
      };
      const client = await PodClient.connect({
        socketPath: pod.socket,
        clientName: 'test/driver',
        onEvent,
        requestTimeoutMs: 30_000,
      });
      const other = await PodClient.connect({ socketPath: pod.socket, clientName: 'test/other' });
      cleanups.push(
        () => client.close(),
        () => other.close(),
      );
      return { pod, ledger, alerts, client, other };
    };
    const { pod, ledger, alerts, client, other } = await start();
    const run = async (input: string | Segment[]) => {
      const ends = ledger.terminals.length + 1;
      await client.request({ method: 'run', params: { input: typeof input === 'string' ? [text(input)] : input } });
      await ledger.when((l) => l.terminals.length === ends && l.atRest);
    };
    await run('before the disk filled');

    fs.fill();
    // Accepted before the pod could know: its entries (64 KiB of paste, the echo of it) wait in memory.
    const big = 'a line of pasted text\n'.repeat(3000);
    await run([text('while the disk is full'), paste(big)]);
    await waitUntil(() => alerts.some((a) => a.level === 'error'), 'an alert saying the log cannot be written');
    const full = alerts.filter((a) => a.level === 'error');
    expect(full).toHaveLength(1);
    expect(full[0].message).toMatch(
      /^the session log \S+ cannot be written \(ENOSPC: no space left on device\): \d+ bytes wait in memory and are retried every 1 s; free some space$/,
    );

    // Input the log could not record is refused with that reason; everything else is served.
    await expect(client.request({ method: 'run', params: { input: [text('refused')] } })).rejects.toThrow(
      /ENOSPC: no space left on device.*; the run was refused$/,
    );
    await expect(other.request({ method: 'notify', params: { message: 'refused too' } })).rejects.toThrow(
      /; the notify was refused$/,
    );
    // A compaction cannot switch to a new log while the old one has unwritten entries.
    const compacted = client.waitFor((e) => e.event === 'compact_done' || e.event === 'compact_failed', 30_000);
    await client.request({ method: 'compact' });
    const compactEnd = await compacted;
    expect(compactEnd).toMatchObject({ event: 'compact_failed', data: { error: expect.stringContaining('ENOSPC') } });
    expect(await other.request({ method: 'get_history' })).toMatchObject({ event: 'history' });
    const live = await liveHistory(cli);
    expect(live.filter((i: any) => i.role === 'user').map((i: any) => i.content[0].text)).toEqual([
      'before the disk filled',
      expect.stringContaining('while the disk is full'),
    ]);
    expect(alerts.filter((a) => a.level === 'error')).toHaveLength(1); // said once, not per entry

    // Space returns: the waiting entries are written (the retry, with no new input), said once.
    fs.free();
    await waitUntil(
      () => alerts.some((a) => /is written again; nothing was lost$/.test(a.message)),
      'an alert saying the log is written again',
    );
    const id = client.welcome!.session_id;
    const logged = await loggedSession(cli, id);
    expect(logged.chain).toBe('intact');
    expect(logged.skipped_lines).toBe(0);
    expect(logged.history).toEqual(live);

    // And the pod works as before; a SIGKILL then loses nothing.
    await run('after space returned');
    const after = await liveHistory(cli);
    expect(after).toHaveLength(live.length + 2);
    pod.child.kill('SIGKILL');
    await pod.exited;
    const again = await start(['--resume']);
    expect(again.client.welcome!.session_id).toBe(id);
    expect(await liveHistory(cli)).toEqual(after);
    expect(ledger.violations).toEqual([]);
    again.pod.child.kill('SIGTERM');
    expect(await again.pod.exited).toBe(0);
  }, 120_000);
});
