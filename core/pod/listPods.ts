import fs from 'node:fs';
import path from 'node:path';
import { isPidAlive, isSocketLive, readStatusFile } from './podFiles.js';
import { runtimeBase } from './runtimePaths.js';

export interface PodListing {
  name: string;
  alive: boolean;
  state?: string;
  pid?: number;
  session_id?: string;
  socket: string;
}

/** Pods found in the runtime directory, with a liveness check (pid and socket). */
export async function listPods(env: NodeJS.ProcessEnv = process.env): Promise<PodListing[]> {
  const base = runtimeBase(env);
  let names: string[];
  try {
    names = fs.readdirSync(base, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  } catch {
    return [];
  }
  const out: PodListing[] = [];
  for (const name of names) {
    const status = readStatusFile(path.join(base, name, 'status.json'));
    const socket = status?.socket ?? path.join(base, name, 'sock');
    if (!status && !fs.existsSync(socket)) continue;
    const alive = (status ? isPidAlive(status.pid) : true) && (await isSocketLive(socket, 500));
    out.push({ name, alive, state: status?.state, pid: status?.pid, session_id: status?.session_id, socket });
  }
  return out;
}
