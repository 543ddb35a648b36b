import fs from 'node:fs';
import path from 'node:path';

/**
 * Ids of the sessions running pods have open, from their `status.json` (no connection: a
 * listing must not wait on a busy pod). A pod killed without cleaning up left a dead pid.
 */
export async function liveSessionIds(env: NodeJS.ProcessEnv = process.env): Promise<Set<string>> {
  const [{ runtimeBase }, { isPidAlive, readStatusFile }] = await Promise.all([
    import('../core/pod/runtimePaths.js'),
    import('../core/pod/podFiles.js'),
  ]);
  const base = runtimeBase(env);
  const ids = new Set<string>();
  let names: string[];
  try {
    names = fs.readdirSync(base);
  } catch {
    return ids;
  }
  for (const name of names) {
    const status = readStatusFile(path.join(base, name, 'status.json'));
    if (status?.session_id !== undefined && status.pid !== undefined && isPidAlive(status.pid))
      ids.add(status.session_id);
  }
  return ids;
}
