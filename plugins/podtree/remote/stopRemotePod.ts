import { setTimeout as sleep } from 'node:timers/promises';
import { remoteLabel } from './addressPod.js';
import type { PodRemote, PodRemotes } from './PodRemotes.js';
import { type ToolOutput, ToolRefusal } from '../../../core/api.js';

/**
 * StopPod for a remote pod of the config: asks it to shut down and waits (up to `waitMs`) until
 * it closed the connection, which it does once its shutdown is over. Nothing is reclaimed here:
 * its scope lives on its own machine.
 */
export async function stopRemotePod(
  remotes: PodRemotes,
  remote: PodRemote,
  self: string,
  waitMs = 10_000,
): Promise<ToolOutput> {
  let client;
  try {
    client = await remotes.connect(remote, self);
  } catch (e) {
    if (e instanceof ToolRefusal) throw e;
    throw new ToolRefusal(`${remoteLabel(remote)} is not reachable (${(e as Error).message})`);
  }
  try {
    await client.request({ method: 'shutdown' });
  } catch {
    // it may close before answering
  }
  const closed = await Promise.race([client.closed.then(() => true), sleep(waitMs, false, { ref: false })]);
  await client.close();
  return { summary: `${closed ? 'stopped' : 'asked to stop'} ${remoteLabel(remote)}` };
}
