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

/** `*` wildcards in one path segment beyond which matching can take seconds (picomatch backtracks). */
export const MAX_STARS_PER_SEGMENT = 2;

/** Why a path or name glob is refused, or undefined. */
export function pathGlobProblem(pattern: string): string | undefined {
  for (const segment of pattern.split('/')) {
    if (segment === '**') continue;
    const stars = segment.replace(/\\./g, '').match(/\*+/g)?.length ?? 0;
    if (stars > MAX_STARS_PER_SEGMENT)
      return `at most ${MAX_STARS_PER_SEGMENT} \`*\` per path segment (\`${segment}\` has ${stars}): more can take seconds to match`;
  }
  return undefined;
}
