import { setTimeout as sleep } from 'node:timers/promises';
import { connectToPod } from './connectToPod.js';

/**
 * Asks a pod to shut down and waits (up to `waitMs`) until it closed the connection, which it
 * does once its shutdown is over (its own reports sent). False when it could not be reached.
 */
export async function requestShutdown(socket: string, self: string, waitMs = 10_000): Promise<boolean> {
  let client;
  try {
    client = await connectToPod(socket, self);
  } catch {
    return false;
  }
  try {
    await client.request({ method: 'shutdown' });
  } catch {
    // it may close before answering
  }
  await Promise.race([client.closed, sleep(waitMs, undefined, { ref: false })]);
  await client.close();
  return true;
}
