import fs from 'node:fs';

/** Whether open descriptors can be named and reached through `/proc/self/fd` (Linux). */
export const HAS_PROC_FD = process.platform === 'linux' && fs.existsSync('/proc/self/fd');

/**
 * Where the file behind an open descriptor really is: the kernel's path for it, read from
 * `/proc/self/fd/<fd>` (every symlink already resolved, so a directory swapped for a link while
 * the path was walked shows up here as the link's target). `undefined` where the OS offers no
 * such name. (A file unlinked since it was opened reads `<path> (deleted)`, which matches no
 * checked path.)
 */
export async function descriptorPath(fd: number): Promise<string | undefined> {
  if (!HAS_PROC_FD) return undefined;
  try {
    const real = await fs.promises.readlink(`/proc/self/fd/${fd}`);
    return real.startsWith('/') ? real : undefined; // not `pipe:[N]` and the like
  } catch {
    return undefined;
  }
}

/** {@link descriptorPath}, synchronously (for bulk checks done in bounded slices). */
export function descriptorPathSync(fd: number): string | undefined {
  if (!HAS_PROC_FD) return undefined;
  try {
    const real = fs.readlinkSync(`/proc/self/fd/${fd}`);
    return real.startsWith('/') ? real : undefined;
  } catch {
    return undefined;
  }
}
