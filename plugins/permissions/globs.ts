import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import type { CallSubject } from './callSubject.js';
import { commandGlob, type CommandGlob } from './commandGlob.js';

type Matcher = (subject: string) => boolean;

const OPTIONS = { dot: true, nonegate: true } as const;
const MAX_CACHED = 4096;
const cache = new Map<string, Matcher>();
const commands = new Map<string, CommandGlob>();

function compiled(key: string, pattern: string): Matcher {
  let m = cache.get(key);
  if (!m) {
    if (cache.size >= MAX_CACHED) cache.clear();
    m = picomatch(pattern, OPTIONS);
    cache.set(key, m);
  }
  return m;
}

/** Whether a rule's `tool` glob names this tool (names have no `/`). */
export function toolMatches(pattern: string, tool: string): boolean {
  return pattern === tool || compiled(`t:${pattern}`, pattern)(tool);
}

/**
 * Whether a rule's `match` glob matches a call's subject (see CONTRIBUTING, "Permissions"):
 * for paths an absolute (or `~/`) glob is matched against the canonical absolute path, any
 * other against the path relative to the project directory (a path outside the project never
 * matches one); command lines with commandGlob (`*` matches any characters, `/` included);
 * names (MCP `<server>/<tool>`, pod names) as picomatch globs.
 */
export function subjectMatches(pattern: string, subject: CallSubject): boolean {
  switch (subject.kind) {
    case 'path': {
      if (pattern.startsWith('/')) return compiled(`p:${pattern}`, pattern)(subject.absolute);
      if (pattern === '~' || pattern.startsWith('~/')) {
        const abs = path.join(os.homedir(), pattern.slice(1));
        return compiled(`p:${abs}`, abs)(subject.absolute);
      }
      if (subject.relative === undefined) return false;
      const rel = pattern.startsWith('./') ? pattern.slice(2) : pattern;
      return compiled(`p:${rel}`, rel)(subject.relative);
    }
    case 'command':
      return commandPattern(pattern).test(subject.text);
    case 'name':
      return compiled(`n:${pattern}`, pattern)(subject.text);
  }
}

/** A compiled command-line glob (see commandGlob.ts). */
export function commandPattern(pattern: string): CommandGlob {
  let g = commands.get(pattern);
  if (!g) {
    if (commands.size >= MAX_CACHED) commands.clear();
    g = commandGlob(pattern);
    commands.set(pattern, g);
  }
  return g;
}

/**
 * Bounds on a path glob's wildcards, so that matching a path the model chose stays in
 * milliseconds: picomatch backtracks, and the work multiplies across segments. Measured against
 * crafted paths: 3 `*` in a segment 22 ms, two segments of 2 `*` 62 ms (three: 19 s), 3 `**`
 * over a deep path 0.5 s (4: 2 s). Within these bounds the worst found took 33 ms
 * (two `**` and a segment of 2 `*`, against a path 1,000 segments deep).
 */
export const MAX_STARS_PER_SEGMENT = 2;
export const MAX_GLOBSTARS = 2;

/** Why a path or name glob is refused, or undefined. */
export function pathGlobProblem(pattern: string): string | undefined {
  let globstars = 0;
  let doubled: string | undefined;
  for (const segment of pattern.split('/')) {
    const stars = segment.replace(/\\./g, '').match(/\*+/g) ?? [];
    if (stars.some((run) => run.length > 1)) globstars++;
    if (segment === '**') continue;
    if (stars.length > MAX_STARS_PER_SEGMENT)
      return `at most ${MAX_STARS_PER_SEGMENT} \`*\` per path segment (\`${segment}\` has ${stars.length}): more can take seconds to match`;
    if (stars.length === MAX_STARS_PER_SEGMENT) {
      if (doubled !== undefined)
        return `at most one path segment with ${MAX_STARS_PER_SEGMENT} \`*\` (\`${doubled}\` and \`${segment}\`): more can take seconds to match`;
      doubled = segment;
    }
  }
  if (globstars > MAX_GLOBSTARS)
    return `at most ${MAX_GLOBSTARS} \`**\` in a glob (${pattern} has ${globstars}): more can take seconds to match`;
  return undefined;
}
