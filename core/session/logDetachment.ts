import fs from 'node:fs';

/** The identity of the file a log writes (its descriptor's, which never changes). */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/**
 * Whether the log's file is no longer where it seems: `deleted` (no name left), `moved` (its
 * name now names another file, or nothing), `undefined` while it is in place, or when that
 * cannot be told. Checked at every run's end, so the common case is one `lstat`: the name
 * still naming the descriptor's own file means it is in place (and, being named, not deleted);
 * only otherwise does an `fstat` of the descriptor tell deleted from moved.
 */
export function logDetachment(fd: number, file: string, own: FileIdentity): 'deleted' | 'moved' | undefined {
  try {
    const there = fs.lstatSync(file, { throwIfNoEntry: false });
    if (there && there.ino === own.ino && there.dev === own.dev) return undefined;
    return fs.fstatSync(fd).nlink === 0 ? 'deleted' : 'moved';
  } catch {
    return undefined;
  }
}
