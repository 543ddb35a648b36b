import fs from 'node:fs';
import path from 'node:path';

/** Symlinks followed before a path counts as unresolvable (the kernel's own limit is 40). */
const MAX_LINK_HOPS = 40;

/**
 * The canonical form of `p` used for every scope decision: absolute, `..` and `.` resolved
 * first (lexically, against `base`), then symlinks resolved with realpath. For a path that
 * does not exist, the nearest existing ancestor is canonicalized and the missing tail
 * re-joined, so a not-yet-created file is judged by where it would land. A dangling symlink
 * is followed to its target, so creating "through" it cannot escape. Returns `undefined`
 * when the path cannot be resolved (NUL byte, loop, name too long, unsearchable directory):
 * callers treat that as no access.
 */
export function canonicalPath(p: string, base: string = process.cwd()): string | undefined {
  if (typeof p !== 'string' || p.length === 0 || p.includes('\0')) return undefined;
  return canonicalAbsolute(path.resolve(base, p), 0);
}

function canonicalAbsolute(abs: string, hops: number): string | undefined {
  if (hops > MAX_LINK_HOPS) return undefined;
  // A plain "no such file" is told without an exception (realpath's would cost more than the
  // rest; the control plane canonicalizes hundreds of paths not created yet at a pod's start).
  let present = true;
  try {
    present = fs.lstatSync(abs, { throwIfNoEntry: false }) !== undefined;
  } catch {
    // ENOTDIR, EACCES …: realpath says which
  }
  if (present) {
    try {
      return fs.realpathSync.native(abs);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
    }
  }
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  const canonicalParent = canonicalAbsolute(parent, hops);
  if (canonicalParent === undefined) return undefined;
  const joined = path.join(canonicalParent, path.basename(abs));
  // realpath failed although the parent resolved: `joined` is missing, or a dangling link.
  let link: string | undefined;
  try {
    if (fs.lstatSync(joined, { throwIfNoEntry: false })?.isSymbolicLink()) link = fs.readlinkSync(joined);
  } catch {
    return joined;
  }
  return link === undefined ? joined : canonicalAbsolute(path.resolve(canonicalParent, link), hops + 1);
}
