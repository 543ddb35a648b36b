import fs from 'node:fs';
import path from 'node:path';
import { isYoiError } from '../core/errors/YoiError.js';
import { isPidAlive, isSocketLive, readStatusFile } from '../core/pod/podFiles.js';
import { runtimeBase } from '../core/pod/runtimePaths.js';
import { checkOwnDir } from '../core/pod/trustedPath.js';

export interface PodListing {
  name: string;
  alive: boolean;
  state?: string;
  pid?: number;
  session_id?: string;
  socket: string;
  /** Why this entry is not trusted (not the user's own): it is not connected to. */
  untrusted?: string;
}

/**
 * Pods found in the runtime directory, with a liveness check (pid and socket). A runtime
 * directory that is not the user's own is refused (one line); a pod directory that is not is
 * listed as untrusted and never connected to.
 */
export async function listPods(env: NodeJS.ProcessEnv = process.env): Promise<PodListing[]> {
  const base = runtimeBase(env);
  if (!checkOwnDir(base)) return [];
  let names: string[];
  try {
    names = fs
      .readdirSync(base, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
  const out: PodListing[] = [];
  for (const name of names) {
    const dir = path.join(base, name);
    try {
      checkOwnDir(dir);
    } catch (e) {
      if (!isYoiError(e)) throw e;
      out.push({ name, alive: false, socket: path.join(dir, 'sock'), untrusted: e.message });
      continue;
    }
    const status = readStatusFile(path.join(dir, 'status.json'));
    const socket = status?.socket ?? path.join(dir, 'sock');
    if (!status && !fs.existsSync(socket)) continue;
    // An unknown pid (missing or malformed) leaves the socket to tell.
    const alive = (status?.pid !== undefined ? isPidAlive(status.pid) : true) && (await isSocketLive(socket, 500));
    out.push({ name, alive, state: status?.state, pid: status?.pid, session_id: status?.session_id, socket });
  }
  return out;
}
