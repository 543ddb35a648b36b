import type { CallSubject } from './callSubject.js';
import { commandPattern, subjectMatches, toolMatches } from './globs.js';
import type { Action, Policy, Rule } from './permissionsConfig.js';

/** Where the rule that decided came from. */
export type RuleSource = 'config' | 'builtin' | 'saved' | 'default' | 'guard' | 'sandbox';

export interface Verdict {
  readonly action: Action;
  readonly source: RuleSource;
  readonly rule?: Rule;
  /** Why, in words (the model reads it in a refusal). */
  readonly why: string;
}

export interface Call {
  readonly tool: string;
  readonly subject: CallSubject | undefined;
}

/**
 * Bash command lines that chain or substitute commands: a wildcard `allow` glob never covers
 * them (`git *` must not allow `git log; rm -rf ~`), so they fall through to the next rule.
 */
const COMPOUND = /[;&|\n\r`]|\$\(|<\(|>\(/;

/** Whether `rule` applies to `call` (first match wins). */
export function ruleMatches(rule: Rule, call: Call): boolean {
  if (!toolMatches(rule.tool, call.tool)) return false;
  if (rule.exact !== undefined) return call.subject !== undefined && subjectText(call.subject) === rule.exact;
  if (rule.match === undefined) return true;
  if (!call.subject) return false;
  if (
    call.subject.kind === 'command' &&
    rule.action === 'allow' &&
    COMPOUND.test(call.subject.text) &&
    commandPattern(rule.match).wildcard
  )
    return false;
  return subjectMatches(rule.match, call.subject);
}

/** The main argument as `exact` compares it: the canonical absolute path, the trimmed command line, the name. */
export function subjectText(subject: CallSubject): string {
  return subject.kind === 'path' ? subject.absolute : subject.text;
}

/** The rule of `rules` that decides `call`, if any. */
export function firstMatch(rules: readonly Rule[], call: Call): Rule | undefined {
  for (const rule of rules) if (ruleMatches(rule, call)) return rule;
  return undefined;
}

/**
 * The policy's verdict on a call. The config's rules (then the built-ins) decide, first match
 * wins, else the default; a `deny` from the config always holds. Otherwise the rules saved by
 * `allow_always` / `reject_always` come first. Bash without a sandbox is never allowed without
 * asking.
 */
export function evaluatePolicy(
  policy: Policy,
  saved: readonly Rule[],
  call: Call,
  opts: { unsandboxedBash?: boolean } = {},
): Verdict {
  const configured = firstMatch(policy.rules, call);
  const builtin = configured ? undefined : firstMatch(policy.builtin, call);
  const fromConfig: Verdict = configured
    ? {
        action: configured.action,
        source: 'config',
        rule: configured,
        why: `rule ${describeRule(configured)} of the config`,
      }
    : builtin
      ? { action: builtin.action, source: 'builtin', rule: builtin, why: `built-in rule ${describeRule(builtin)}` }
      : { action: policy.default, source: 'default', why: `the policy's default (${policy.default})` };
  let verdict = fromConfig;
  if (fromConfig.action !== 'deny') {
    const own = firstMatch(saved, call);
    if (own)
      verdict = {
        action: own.action,
        source: 'saved',
        rule: own,
        why: `saved rule ${describeRule(own)} (.yoi/permissions.json)`,
      };
  }
  if (verdict.action === 'allow' && opts.unsandboxedBash && call.tool === 'Bash') {
    return {
      action: 'ask',
      source: 'sandbox',
      why: 'Bash runs without a sandbox (bash.sandbox: off): every command asks',
    };
  }
  return verdict;
}

/** `{tool: Bash, match: "npm test", action: allow}`, clipped. */
export function describeRule(rule: Rule): string {
  const clip = (v: string) => JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);
  const match =
    rule.match !== undefined
      ? `, match: ${clip(rule.match)}`
      : rule.exact !== undefined
        ? `, exact: ${clip(rule.exact)}`
        : '';
  return `{tool: ${rule.tool}${match}, action: ${rule.action}}`;
}
