import type { z } from 'zod';
import { formatPath } from '../protocol/index.js';
import { closestMatch } from './closestMatch.js';

/** Unknown keys named in the line; the rest are counted, like further issues. */
const MAX_KEYS_NAMED = 3;

/**
 * One readable line for a zod error, naming the key path of the first problem (an unknown key
 * before anything else):
 * `model.provider: expected string`, `modle: unknown key (did you mean "model"?)`.
 * `schema` (the one that failed) lets unknown keys suggest the closest known key; `prefix` is
 * prepended to every key path (`yoi` for `package.json#yoi`).
 */
export function formatZodError(error: z.ZodError, schema?: z.ZodType, prefix: readonly PropertyKey[] = []): string {
  // A typo explains the rest (`scrpt` is also why `script` is missing): name the bad key first.
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  const unnamedKeys = issue.code === 'unrecognized_keys' ? Math.max(0, issue.keys.length - MAX_KEYS_NAMED) : 0;
  const others = error.issues.length - 1 + unnamedKeys;
  const more = others > 0 ? ` (and ${others} more)` : '';
  return describeIssue(issue, schema, prefix) + more;
}

function describeIssue(issue: z.core.$ZodIssue, schema: z.ZodType | undefined, prefix: readonly PropertyKey[]): string {
  const at = (path: readonly PropertyKey[], text: string) =>
    prefix.length + path.length ? `${formatPath([...prefix, ...path])}: ${text}` : text;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const known = schema ? knownKeysAt(schema, issue.path) : [];
      return issue.keys
        .slice(0, MAX_KEYS_NAMED)
        .map((key) => at([...issue.path, key], `unknown key${suggest(key, known)}`))
        .join(', ');
    }
    case 'invalid_type':
      return at(issue.path, `expected ${article(issue.expected)}`);
    case 'invalid_value':
      return at(issue.path, `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`);
    case 'too_small':
      return at(
        issue.path,
        issue.origin === 'string' || issue.origin === 'array'
          ? `must not be empty`
          : `must be ${issue.inclusive ? '≥' : '>'} ${issue.minimum}`,
      );
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
  // Farther than 2 edits is a different word, not a typo.
  const best = closestMatch(key, known);
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
