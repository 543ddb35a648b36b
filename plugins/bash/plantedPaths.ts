import fs from 'node:fs';
import { protectedKeys, protectedKeyValue, type PodInfo } from '../../core/api.js';

/** Largest package.json whose protected key is checked after a command; a larger one is moved aside. */
const MAX_KEY_FILE_BYTES = 16 * 1024 * 1024;

/** A path of the control plane that does not exist, so no mount can keep a command from creating it. */
export interface AbsentPath {
  readonly path: string;
  readonly what: string;
}

/**
 * The pod's protected paths that do not exist before a command runs: a config name next to the
 * config, in a directory the config search passes, a module that would shadow an import, the
 * user's yoi settings. Read-only binds need an existing path; these are checked after the command
 * instead (see {@link removePlanted}). Entries keeping user data below them (`except`) are left to
 * the mounts: the pod creates those directories first.
 */
export function absentProtected(pod: PodInfo): AbsentPath[] {
  const listed = (pod.services.scope as unknown as { protectedPaths?: unknown }).protectedPaths;
  if (!Array.isArray(listed)) return [];
  const out: AbsentPath[] = [];
  for (const entry of listed as { path?: unknown; what?: unknown; except?: unknown }[]) {
    if (typeof entry?.path !== 'string' || (Array.isArray(entry.except) && entry.except.length > 0)) continue;
    if ((entry as { key?: unknown }).key !== undefined) continue; // see keySnapshot
    if (fs.lstatSync(entry.path, { throwIfNoEntry: false }) !== undefined) continue;
    out.push({ path: entry.path, what: typeof entry.what === 'string' ? entry.what : 'its control plane' });
  }
  return out;
}

/**
 * Removes what a finished command created at `absent` paths (a link itself, never what it points
 * to; a directory with all it holds, links inside not followed), and says so: one line per path,
 * for the command's result. The command's processes are gone by then (its PID namespace ended).
 */
export async function removePlanted(absent: readonly AbsentPath[]): Promise<string[]> {
  const lines: string[] = [];
  for (const { path, what } of absent) {
    if (fs.lstatSync(path, { throwIfNoEntry: false }) === undefined) continue;
    try {
      // Asynchronous: what a command made in its time can take a while to remove, off the event loop.
      await fs.promises.rm(path, { recursive: true, force: true });
      lines.push(`removed ${path}: it is part of the pod's control plane (${what}); the pod's tools cannot write it`);
    } catch (error) {
      lines.push(
        `could not remove ${path}, part of the pod's control plane (${what}): ${(error as Error).message}; remove it before starting a pod here`,
      );
    }
  }
  return lines;
}

/** The protected JSON keys' values before a command (a package.json's `yoi`, see protectedKeys). */
export function keySnapshot(pod: PodInfo): { path: string; key: string; what: string; value: string }[] {
  return protectedKeys(pod.services.scope).map((e) => ({ ...e, value: protectedKeyValue(readIfFile(e.path), e.key) }));
}

/**
 * Puts back a protected key a finished command changed, keeping the rest of what it wrote (an
 * `npm install`'s dependencies): the key as it was, or none where there was none. One line each.
 */
export async function restoreKeys(snapshot: ReturnType<typeof keySnapshot>): Promise<string[]> {
  const lines: string[] = [];
  for (const { path, key, what, value } of snapshot) {
    const seen = fs.lstatSync(path, { throwIfNoEntry: false });
    // A link put in its place would be read through by the next search: it goes.
    if (seen?.isSymbolicLink()) {
      lines.push(...(await removePlanted([{ path, what }])));
      continue;
    }
    // Too large to check here (the next search would still read it): moved aside, nothing lost.
    if (seen?.isFile() && seen.size > MAX_KEY_FILE_BYTES) {
      const aside = `${path}.over-${MAX_KEY_FILE_BYTES / 1024 / 1024}MiB`;
      fs.renameSync(path, aside);
      lines.push(
        `moved ${path} to ${aside}: over ${MAX_KEY_FILE_BYTES / 1024 / 1024} MiB, its \`${key}\` key (part of the pod's control plane, ${what}) cannot be checked`,
      );
      continue;
    }
    const bytes = readIfFile(path);
    if (protectedKeyValue(bytes, key) === value) continue;
    try {
      const text = bytes!.toString('utf8');
      const object = JSON.parse(text) as Record<string, unknown>;
      if (value === 'absent') delete object[key];
      else object[key] = JSON.parse(value);
      const indent = /^[{[]\r?\n([ \t]+)/.exec(text)?.[1] ?? 2;
      fs.writeFileSync(path, `${JSON.stringify(object, null, indent)}${text.endsWith('\n') ? '\n' : ''}`);
      lines.push(
        `restored the \`${key}\` key of ${path}: it is part of the pod's control plane (${what}); the pod's tools cannot write it`,
      );
    } catch (error) {
      lines.push(
        `could not restore the \`${key}\` key of ${path}, part of the pod's control plane (${what}): ${(error as Error).message}; check it before starting a pod here`,
      );
    }
  }
  return lines;
}

function readIfFile(path: string): Buffer | undefined {
  try {
    const seen = fs.lstatSync(path, { throwIfNoEntry: false });
    return seen?.isFile() && seen.size <= MAX_KEY_FILE_BYTES ? fs.readFileSync(path) : undefined;
  } catch {
    return undefined;
  }
}
