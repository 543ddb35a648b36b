import fs from 'node:fs';
import path from 'node:path';
import type { Placement } from './ReportRelay.js';
import type { SpawnReply, SpawnRequest } from '../PlacementSchemas.js';
import { HOST_NAME_ENV } from '../hostName.js';
import { connectToPod } from '../../podtree/shared/connectToPod.js';
import { requestShutdown } from '../../podtree/shared/requestShutdown.js';
import { ChildStartError, startChildPod } from '../../podtree/startChildPod.js';
import {
  coversFully,
  delegate,
  findAllocation,
  reclaimStale,
  registerTopLevel,
  release,
} from '../../podtree/tree/allocationTable.js';
import { ScopeLockFile } from '../../podtree/tree/ScopeLockFile.js';
import type { LockRule } from '../../podtree/tree/ScopeLockSchema.js';
import { canonicalPath, isPidAlive, isSocketLive, isWithin, isYoiError, podPaths } from '../../../core/api.js';

export interface HostContext {
  readonly hostName: string;
  /** This host's copy of the project (the parent's path when no mapping is configured). */
  readonly projectDir: string | undefined;
  /** The project this host serves, canonical (its mapping, else its config's directory): no placed pod's scope or cwd lies outside it. */
  readonly servedDir: string;
  /** The relay socket placed pods report to (their `--callback`). */
  readonly relaySocket: string;
  readonly env: NodeJS.ProcessEnv;
  readonly configPath: string | null;
  readonly configDigest?: string;
  readonly placements: Map<string, Placement>;
}

/**
 * One placement request: the parent's paths are rebased onto this host's project directory,
 * the scope is reserved in this host's scope.lock under a stand-in for the remote parent (an
 * allocation named after it, held by this host's process, whose socket is the relay), the
 * child is started with `yoi pod start --adopt --callback <relay>` and given its task as
 * `pod/<parent>` (so it reports when that run ends). Any failure undoes the reservation.
 */
export async function placeChild(request: SpawnRequest, host: HostContext): Promise<SpawnReply> {
  const projectDir = host.projectDir ?? request.project_dir;
  const rebase = (p: string) =>
    isWithin(p, request.project_dir) ? path.join(projectDir, path.relative(request.project_dir, p)) : p;
  const rules: LockRule[] = [];
  for (const r of request.scope) {
    const target = canonicalPath(rebase(r.target), projectDir);
    if (target === undefined || !fs.existsSync(target))
      return { ok: false, error: `scope target ${rebase(r.target)} does not exist on host ${host.hostName}` };
    // A placement request is not signed: whoever can publish it gets no more than this project.
    if (!isWithin(target, host.servedDir))
      return {
        ok: false,
        error: `scope target ${target} is outside the project host ${host.hostName} serves (${host.servedDir})`,
      };
    rules.push({ ...r, target });
  }
  const cwd = canonicalPath(rebase(request.cwd), projectDir) ?? projectDir;
  if (!isWithin(cwd, host.servedDir))
    return { ok: false, error: `cwd ${cwd} is outside the project host ${host.hostName} serves (${host.servedDir})` };
  const paths = podPaths(request.name, host.env);
  if (await isSocketLive(paths.socket))
    return { ok: false, error: `a pod named \`${request.name}\` is already running on host ${host.hostName}` };
  const lock = ScopeLockFile.inBase(paths.base);
  try {
    await lock.update((table) => {
      reclaimStale(table, isPidAlive);
      const standIn = findAllocation(table, request.parent);
      if (standIn && standIn.socket !== host.relaySocket)
        throw new Error(`a pod named \`${request.parent}\` runs on host ${host.hostName} itself`);
      const allow = [...(standIn?.scope_allow ?? [])];
      for (const r of rules) if (!allow.some((a) => coversFully(a, r))) allow.push(r);
      registerTopLevel(table, {
        pod_name: request.parent,
        pid: process.pid,
        socket: host.relaySocket,
        scope_allow: allow,
      });
      delegate(table, request.parent, {
        pod_name: request.name,
        pid: process.pid,
        socket: paths.socket,
        scope_allow: rules,
      });
    });
  } catch (e) {
    return { ok: false, error: isYoiError(e) || e instanceof Error ? e.message : String(e) };
  }
  const undo = async () => {
    host.placements.delete(request.name);
    await lock.update((table) => void release(table, request.name)).catch(() => undefined);
  };
  host.placements.set(request.name, { parent: request.parent, secret: request.secret });
  let pid: number;
  try {
    pid = await startChildPod({
      name: request.name,
      paths,
      callback: host.relaySocket,
      cwd,
      env: { ...host.env, [HOST_NAME_ENV]: host.hostName },
      secret: request.secret,
      configPath: host.configPath,
      ...(host.configDigest ? { configDigest: host.configDigest } : {}),
      ...(request.instruction ? { instruction: request.instruction } : {}),
    });
  } catch (e) {
    await undo();
    return {
      ok: false,
      error:
        e instanceof ChildStartError
          ? e.message
          : `pod \`${request.name}\` could not be started: ${(e as Error).message}`,
    };
  }
  try {
    const client = await connectToPod(paths.socket, request.parent);
    try {
      await client.request({ method: 'run', params: { input: [{ kind: 'text', content: request.task }] } });
    } finally {
      await client.close();
    }
  } catch (e) {
    await requestShutdown(paths.socket, request.parent, 2000);
    await undo();
    return {
      ok: false,
      error: `pod \`${request.name}\` did not accept its task (${(e as Error).message}); it was stopped`,
    };
  }
  return { ok: true, host: host.hostName, socket: paths.socket, pid };
}
