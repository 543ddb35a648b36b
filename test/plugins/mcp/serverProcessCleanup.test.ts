import { afterEach, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { eventually, fixture, newManager, processAlive, toolCtx } from './mcpServers.js';

/**
 * What a stdio server started is ended with it, also where its own pid no longer leads to it:
 * after it crashed (its children handed to init), when it never finished starting, and what it
 * starts while being closed (replayed: each of these was left running after the pod stopped).
 */
const cleanups: (() => Promise<unknown> | unknown)[] = [];
const leftovers: number[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ended, as it should have
    }
  }
});

function setup(servers: (dir: string) => Record<string, unknown>) {
  const made = newManager(servers);
  cleanups.push(() => made.m.close());
  return made;
}

function pidsIn(file: string): number[] {
  const pids = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  leftovers.push(...pids);
  return pids;
}

const ended = (pids: number[], what: string) => eventually(() => pids.every((p) => !processAlive(p)), what, 5_000);

const ctx = toolCtx();

it("a crashed server's child, handed to init, is ended before the restart", async () => {
  const { m, alerts, at } = setup((dir) => ({ fx: fixture('--spawn-child', '--pid-file', path.join(dir, 'pids')) }));
  await m.start();
  const [, helper] = pidsIn(at('pids'));
  expect(processAlive(helper)).toBe(true);
  await m
    .podTools()
    .find((t) => t.name === 'mcp__fx__crash')!
    .execute({}, ctx);
  await eventually(() => alerts.some((a) => a.includes('exited unexpectedly')), 'the crash');
  await ended([helper], "the crashed server's child to end");
});

it('a server that never answers initialize: its start times out and its child ends with it', async () => {
  const { m, at } = setup((dir) => ({
    silent: {
      ...fixture('--spawn-child', '--pid-file', path.join(dir, 'pids'), '--wait-for', path.join(dir, 'never')),
      timeoutMs: 1500,
    },
  }));
  await m.start();
  expect(m.describe().servers[0].state).toBe('failed');
  await ended(pidsIn(at('pids')), 'the silent server and its child to end');
});

it('closed while still starting: its child ends too', async () => {
  const { m, at } = setup((dir) => ({
    slow: fixture('--spawn-child', '--pid-file', path.join(dir, 'pids'), '--wait-for', path.join(dir, 'never')),
  }));
  const started = m.start();
  await eventually(() => fs.existsSync(at('pids')) && fs.readFileSync(at('pids'), 'utf8').includes('\n'), 'the server');
  const pids = pidsIn(at('pids'));
  await m.close();
  await started;
  await ended(pids, 'the starting server and its child to end');
});

it('a process the server starts while it is being closed is ended too', async () => {
  const { m, at } = setup((dir) => ({ fx: fixture('--spawn-at-exit', path.join(dir, 'late')) }));
  await m.start();
  await m.close();
  const late = pidsIn(at('late'));
  await ended(late, 'the process started on the way out to end');
});
