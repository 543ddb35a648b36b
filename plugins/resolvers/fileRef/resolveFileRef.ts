import path from 'node:path';
import { displayRef } from '../shared/displayRef.js';
import { readTextFile } from '../shared/readTextFile.js';
import { segmentField } from '../shared/segmentField.js';
import { listDirectory } from './listDirectory.js';
import type { Resolution, ResolveContext } from '../../../core/api.js';

/** Longest path accepted, in bytes (Linux PATH_MAX); longer input is refused unread. */
export const MAX_PATH_BYTES = 4096;

export interface FileRefLimits {
  /** Most bytes of a file put in the context; the rest is cut and the cut announced. */
  readonly maxBytes: number;
  /** Most entries shown for a directory. */
  readonly maxEntries: number;
}

/**
 * Resolves `@path` (relative to the pod's cwd) within the pod's read scope. Each case gives
 * a documented result (see docs/writing-a-resolver-plugin.md, "The built-in resolvers"):
 * file ⇒ `context` with its text (the head and a `warning` when over `maxBytes`); directory ⇒
 * a capped listing; outside scope, missing, binary, FIFO/socket/device, unreadable,
 * malformed ⇒ `unresolved` with the reason. Content and facts outside scope are never read.
 */
export async function resolveFileRef(
  segment: unknown,
  ctx: ResolveContext,
  limits: FileRefLimits,
): Promise<Resolution> {
  const written = segmentField(segment, 'path');
  if (typeof written !== 'string')
    return { type: 'unresolved', reason: 'malformed file_ref segment: `path` is not a string' };
  const ref = displayRef(written);
  const unresolved = (reason: string): Resolution => ({ type: 'unresolved', reason, ref });
  if (written.length === 0) return unresolved('the path is empty');
  if (written.includes('\0')) return unresolved('the path contains a NUL byte');
  if (written.length > MAX_PATH_BYTES || Buffer.byteLength(written) > MAX_PATH_BYTES) {
    return unresolved(`the path is longer than ${MAX_PATH_BYTES} bytes`);
  }
  if (ctx.signal.aborted) return unresolved('cancelled');

  const check = ctx.services.scope.check(path.resolve(ctx.cwd, written), 'read');
  if (!check.ok) return unresolved(`not readable: ${check.reason}`);

  const label = `File: ${ref}`;
  const read = await readTextFile(check.path, { maxBytes: limits.maxBytes, signal: ctx.signal });
  switch (read.kind) {
    case 'text': {
      if (read.shownBytes >= read.size) return { type: 'context', label, text: read.text };
      const cut = read.size - read.shownBytes;
      return {
        type: 'context',
        label,
        text: `${read.text}\n\n[truncated: showing the first ${read.shownBytes} of ${read.size} bytes; ${cut} bytes cut (limit ${limits.maxBytes})]`,
        warning: `@${ref} was truncated to its first ${read.shownBytes} of ${read.size} bytes (limit ${limits.maxBytes})`,
      };
    }
    case 'directory':
      return directoryResolution(check.path, label, ref, ctx, limits);
    case 'binary':
      return unresolved('a binary file (NUL byte in its first 8 KiB); not included');
    case 'special':
      return unresolved(`${read.what}, not a regular file; not opened`);
    case 'missing':
      return unresolved('no such file or directory');
    case 'denied':
      return unresolved('permission denied');
    case 'aborted':
      return unresolved('cancelled');
    case 'error':
      return unresolved(`cannot be read (${read.code})`);
  }
}

async function directoryResolution(
  dir: string,
  label: string,
  ref: string,
  ctx: ResolveContext,
  limits: FileRefLimits,
): Promise<Resolution> {
  let listing;
  try {
    listing = await listDirectory(dir, {
      scope: ctx.services.scope,
      maxEntries: limits.maxEntries,
      signal: ctx.signal,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EACCES' || code === 'EPERM'
        ? 'permission denied (directory)'
        : code === 'YOI_ERR_PATH_CHANGED'
          ? 'the directory changed while being listed'
          : `directory cannot be listed (${code ?? 'unknown error'})`;
    return { type: 'unresolved', reason, ref };
  }
  if (!listing) return { type: 'unresolved', reason: 'cancelled', ref };
  const { entries, total, partial } = listing;
  const count = partial ? `more than ${total} entries` : `${total} ${total === 1 ? 'entry' : 'entries'}`;
  const lines = [`Directory ${ref} (${count}; file contents not included):`, ...entries];
  if (partial) lines.push(`… more not shown (the first ${entries.length} by name among the first ${total} read)`);
  else if (entries.length < total)
    lines.push(`… ${total - entries.length} more not shown (the first ${entries.length} by name)`);
  if (total === 0) lines.push('(empty)');
  return { type: 'context', label, text: lines.join('\n') };
}
