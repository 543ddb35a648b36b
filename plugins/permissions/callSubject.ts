import os from 'node:os';
import path from 'node:path';
import { canonicalPath } from '../../core/api.js';

/**
 * What a rule's `match` glob is matched against: a call's main argument. A file path (canonical:
 * links resolved, so a link cannot dress one file up as another), a command line, or a name.
 */
export type CallSubject =
  | {
      readonly kind: 'path';
      readonly absolute: string;
      /** Relative to the project directory, when inside it. */ readonly relative?: string;
    }
  | { readonly kind: 'command'; readonly text: string }
  | { readonly kind: 'name'; readonly text: string };

export interface SubjectBase {
  readonly cwd: string;
  /** Canonical. */
  readonly projectDir: string;
}

/** Tools whose `path` argument defaults to the working directory. */
const SEARCH_TOOLS = new Set(['Glob', 'Grep']);
const MCP = /^mcp__(.+?)__(.+)$/;

/**
 * The main argument of a call: `<server>/<tool>` for MCP tools (`mcp__<server>__<tool>`), the
 * command line for Bash, the path for tools taking `file_path` or `path` (Glob and Grep default
 * to the working directory), the `name` of the pod tools; undefined for anything else (a rule with
 * `match` then never matches the call).
 */
export function callSubject(tool: string, args: unknown, base: SubjectBase): CallSubject | undefined {
  const mcp = MCP.exec(tool);
  if (mcp) return { kind: 'name', text: `${mcp[1]}/${mcp[2]}` };
  const a = (args !== null && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  if (tool === 'Bash') return typeof a.command === 'string' ? { kind: 'command', text: a.command.trim() } : undefined;
  const file =
    typeof a.file_path === 'string'
      ? a.file_path
      : typeof a.path === 'string'
        ? a.path
        : SEARCH_TOOLS.has(tool)
          ? '.'
          : undefined;
  if (file !== undefined) return pathSubject(file, base);
  if (typeof a.name === 'string') return { kind: 'name', text: a.name };
  return undefined;
}

/** A path as given (absolute, relative to the cwd, `~/…`), canonical where it can be resolved. */
export function pathSubject(given: string, base: SubjectBase): CallSubject {
  const expanded = given === '~' || given.startsWith('~/') ? path.join(os.homedir(), given.slice(1)) : given;
  // A path that cannot be resolved (a NUL byte, a link loop) is judged as written.
  const absolute = canonicalPath(expanded, base.cwd) ?? path.resolve(base.cwd, expanded);
  const rel = path.relative(base.projectDir, absolute);
  const inside = rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
  return inside ? { kind: 'path', absolute, relative: rel === '' ? '.' : rel } : { kind: 'path', absolute };
}
