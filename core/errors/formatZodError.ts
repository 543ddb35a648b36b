import type { z } from 'zod';
import { formatPath } from '../protocol/index.js';

/**
 * One readable line for a zod error, naming the key path of the first problem:
 * `model.provider: expected string`, `modle: unknown key (did you mean "model"?)`.
 * `schema` (the one that failed) lets unknown keys suggest the closest known key; `prefix` is
 * prepended to every key path (`yoi` for `package.json#yoi`).
 */
export function formatZodError(error: z.ZodError, schema?: z.ZodType, prefix: readonly PropertyKey[] = []): string {
  const issue = error.issues[0];
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return describeIssue(issue, schema, prefix) + more;
}

function describeIssue(issue: z.core.$ZodIssue, schema: z.ZodType | undefined, prefix: readonly PropertyKey[]): string {
  const at = (path: readonly PropertyKey[], text: string) => (prefix.length + path.length ? `${formatPath([...prefix, ...path])}: ${text}` : text);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const known = schema ? knownKeysAt(schema, issue.path) : [];
      return issue.keys.map((key) => at([...issue.path, key], `unknown key${suggest(key, known)}`)).join(', ');
    }
    case 'invalid_type':
      return at(issue.path, `expected ${article(issue.expected)}`);
    case 'invalid_value':
      return at(issue.path, `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`);
    case 'too_small':
      return at(issue.path, issue.origin === 'string' || issue.origin === 'array'
        ? `must not be empty`
        : `must be ${issue.inclusive ? '≥' : '>'} ${issue.minimum}`);
    case 'too_big':
      return at(issue.path, `must be ${issue.inclusive ? '≤' : '<'} ${issue.maximum}`);
    default:
      return at(issue.path, issue.message);
  }
}

/** Zod says `int` for integers; everything else reads fine as is. */
function article(expected: string): string {
  return expected === 'int' ? 'an integer' : expected;
}

function suggest(key: string, known: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = 3; // farther than 2 edits is a different word, not a typo
  for (const candidate of known) {
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best ? ` (did you mean "${best}"?)` : '';
}

/** Keys of the object schema found at `path`, seen through optional/default wrappers and arrays. */
function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: z.core.$ZodType | undefined = schema;
  for (let i = 0; node && i <= path.length; i++) {
    node = unwrap(node);
    if (i === path.length) break;
    const def = node._zod.def as { type: string; shape?: Record<string, z.core.$ZodType>; element?: z.core.$ZodType };
    node = def.type === 'object' ? def.shape?.[String(path[i])] : def.type === 'array' ? def.element : undefined;
  }
  const def = node?._zod.def as { type: string; shape?: Record<string, unknown> } | undefined;
  return def?.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}

function unwrap(node: z.core.$ZodType): z.core.$ZodType {
  let def = node._zod.def as { type: string; innerType?: z.core.$ZodType };
  while (def.innerType && ['optional', 'default', 'prefault', 'nullable', 'readonly'].includes(def.type)) {
    node = def.innerType;
    def = node._zod.def as { type: string; innerType?: z.core.$ZodType };
  }
  return node;
}

/** Edit distance where swapping two neighbours counts as one edit: enough for typo hints. */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  const prev2: number[] = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
    }
    prev2.splice(0, prev2.length, ...prev);
    prev.splice(0, prev.length, ...cur);
  }
  return prev[b.length];
}
