import { snapshotSubdirs, removeNewSubdirs, type SubdirSnapshot } from './newSubdirs.js';
import { absentProtected, keySnapshot, removePlanted, restoreKeys, type AbsentPath } from './plantedPaths.js';
import type { PodInfo } from '../../core/api.js';

type KeyEntry = ReturnType<typeof keySnapshot>[number];

/**
 * What one pod's commands must not leave behind, across all the commands that overlap (a call
 * abandoned at the pod's deadline still runs until its sandbox is dead; calls may run side by
 * side). Each command adds what it sees at its start — protected paths that are absent, protected
 * keys' values, subdirectories of non-recursive targets — the first sighting winning, so a later
 * command cannot adopt what an earlier one planted. When the last running command has ended the
 * whole set is checked and put right; a command starting meanwhile waits for that. What existed
 * while no command ran is the user's and is never touched.
 */
export class CommandWatch {
  #running = 0;
  #cleaning: Promise<unknown> | undefined;
  #absent = new Map<string, AbsentPath>();
  #keys = new Map<string, KeyEntry>();
  #subdirs: SubdirSnapshot = new Map();

  /**
   * Records what the command starts from; call it before planning its sandbox. The returned
   * `end`, called once the command's processes are all dead, gives the lines for its result:
   * what was removed or restored, when it was the last one running (else none).
   */
  async begin(pod: PodInfo): Promise<() => Promise<string[]>> {
    while (this.#cleaning) await this.#cleaning;
    this.#running++;
    try {
      for (const entry of absentProtected(pod)) if (!this.#absent.has(entry.path)) this.#absent.set(entry.path, entry);
      for (const entry of keySnapshot(pod)) {
        const id = `${entry.path}\0${entry.key}`;
        if (!this.#keys.has(id)) this.#keys.set(id, entry);
      }
      snapshotSubdirs(pod.services.scope, this.#subdirs);
    } catch (error) {
      this.#running--;
      throw error;
    }
    let ended = false;
    return async () => {
      if (ended) return [];
      ended = true;
      if (--this.#running > 0) return [];
      const work = this.#putRight(pod);
      this.#cleaning = work.catch(() => undefined);
      try {
        return await work;
      } finally {
        this.#cleaning = undefined;
      }
    };
  }

  async #putRight(pod: PodInfo): Promise<string[]> {
    const absent = [...this.#absent.values()];
    const keys = [...this.#keys.values()];
    const subdirs = this.#subdirs;
    this.#absent = new Map();
    this.#keys = new Map();
    this.#subdirs = new Map();
    return [
      ...(await removePlanted(absent)),
      ...(await restoreKeys(keys)),
      ...(await removeNewSubdirs(subdirs, pod.services.scope)),
    ];
  }
}
