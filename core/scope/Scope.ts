import path from 'node:path';
import { YoiError } from '../errors/YoiError.js';
import { canonicalPath } from './canonicalPath.js';
import { protects, resolveProtected, type ProtectedPath, type ProtectedPathInput } from './ProtectedPath.js';
import { isWithin, ruleMatches } from './ruleMatches.js';
import {
  PERMISSION_RANK,
  ScopeRuleInputSchema,
  type Permission,
  type ResolvedRule,
  type ScopeRuleInput,
} from './ScopeRule.js';

/** The `scope` section of a config: allow and deny rules (targets absolute or relative). */
export interface ScopeConfigInput {
  readonly allow?: readonly ScopeRuleInput[];
  readonly deny?: readonly ScopeRuleInput[];
}

/** Outcome of {@link Scope.check}: the canonical path to use, or why access is refused. */
export type ScopeCheck =
  | { readonly ok: true; readonly path: string; readonly permission: Permission }
  | { readonly ok: false; readonly reason: string };

/** A runtime write lock taken with {@link Scope.lockWrite}; `release()` is idempotent. */
export interface ScopeLock {
  readonly rule: ResolvedRule;
  release(): void;
}

/**
 * What a pod may read and write (semantics of yoi's scope, kept as is):
 * - allow: the highest permission among matching allow rules (`read < write`); none ⇒ no access;
 * - deny: the lowest matching deny level caps access strictly below it (deny read ⇒ no access,
 *   deny write ⇒ at most read);
 * - a recursive rule covers its target and everything below (component-wise), a
 *   non-recursive one the target and its direct children;
 * - every queried path is canonicalized first (`..` resolved, then symlinks; see
 *   {@link canonicalPath}), so a symlink leading outside scope is outside scope.
 * No allow rule at all means the default: write access to the base (project) directory.
 *
 * Rules are fixed at construction. Runtime restrictions (a region delegated to a child pod)
 * are added with {@link Scope.lockWrite}: they act as extra deny-write rules until released.
 */
export class Scope {
  /** Directory relative paths and relative targets are resolved against (the project dir). */
  readonly baseDir: string;
  readonly #allow: readonly ResolvedRule[];
  readonly #deny: readonly ResolvedRule[];
  readonly #locks = new Set<ResolvedRule>();
  readonly #protected: ProtectedPath[] = [];

  constructor(config: ScopeConfigInput | undefined, baseDir: string) {
    this.baseDir = canonicalPath(baseDir) ?? path.resolve(baseDir);
    const allow = resolveRules(config?.allow ?? [], 'allow', this.baseDir);
    this.#allow = allow.length > 0 ? allow : [{ target: this.baseDir, permission: 'write', recursive: true }];
    this.#deny = resolveRules(config?.deny ?? [], 'deny', this.baseDir);
  }

  /** The default scope: recursive write access to `dir`. */
  static writable(dir: string): Scope {
    return new Scope(undefined, dir);
  }

  /** Allow rules, canonical, in declaration order. */
  get allowRules(): readonly ResolvedRule[] {
    return this.#allow;
  }

  /** Deny rules from the config, canonical (runtime locks not included; see `locks`). */
  get denyRules(): readonly ResolvedRule[] {
    return this.#deny;
  }

  /**
   * The pod's control plane (its config files, its state under `.yoi/`, its runtime directory):
   * never writable through this scope, whatever the rules say; readable as they say. Read-only
   * here; the sandbox of a command tool binds these read-only.
   */
  get protectedPaths(): readonly ProtectedPath[] {
    return Object.freeze([...this.#protected]);
  }

  /** Adds paths of the control plane (see {@link Scope.protectedPaths}); they stay for the scope's life. */
  protect(entries: readonly ProtectedPathInput[]): void {
    for (const entry of entries) this.#protected.push(resolveProtected(entry, this.baseDir));
  }

  /**
   * Declares a folder inside the pod's state (`.yoi/`) as the user's data, writable as the scope
   * says (a knowledge folder configured elsewhere in `.yoi/`). Config files, session logs and the
   * runtime directory never become writable this way.
   */
  addUserData(dir: string): void {
    const entries = this.#protected.map((entry) => {
      if (entry.what !== 'its state') return entry;
      const added = resolveProtected(
        { path: entry.path, what: entry.what, except: [...entry.except, dir] },
        this.baseDir,
      );
      return isWithin(added.except.at(-1)!, entry.path) && added.except.at(-1) !== entry.path ? added : entry;
    });
    this.#protected.splice(0, this.#protected.length, ...entries);
  }

  /** The runtime write locks currently held. */
  get locks(): readonly ResolvedRule[] {
    return [...this.#locks];
  }

  /** Effective permission at `p` (relative paths: against `baseDir`); `undefined` = no access. */
  permissionAt(p: string): Permission | undefined {
    const canonical = canonicalPath(p, this.baseDir);
    return canonical === undefined ? undefined : this.#permissionAtCanonical(canonical);
  }

  canRead(p: string): boolean {
    return this.permissionAt(p) !== undefined;
  }

  /**
   * Effective permission at a path already known to be canonical (a verified descriptor's path,
   * an entry of a verified directory): the rules only, no filesystem access.
   */
  permissionAtCanonical(canonical: string): Permission | undefined {
    return this.#permissionAtCanonical(canonical);
  }

  canWrite(p: string): boolean {
    return this.permissionAt(p) === 'write';
  }

  /**
   * Checks `p` for `need` and returns the canonical path to open (use it, not `p`, so the
   * checked path is the one used). Reasons never mention where a path leads, so refusing
   * reveals nothing about content outside scope.
   */
  check(p: string, need: Permission): ScopeCheck {
    const canonical = canonicalPath(p, this.baseDir);
    if (canonical === undefined) return { ok: false, reason: 'the path cannot be resolved' };
    const permission = this.#rulesPermission(canonical);
    if (permission === undefined) return { ok: false, reason: "outside the pod's scope" };
    if (PERMISSION_RANK[permission] < PERMISSION_RANK[need])
      return { ok: false, reason: "read-only: outside the pod's write scope" };
    const plane = permission === 'write' ? this.#protectedBy(canonical) : undefined;
    if (plane && need === 'write') {
      return {
        ok: false,
        reason: `it is part of the pod's control plane (${plane.what}); the pod's tools cannot write it`,
      };
    }
    return { ok: true, path: canonical, permission: plane ? 'read' : permission };
  }

  /**
   * Takes write access away from `target` (recursively by default) until the lock is released:
   * the pod keeps read access there. Meant for regions delegated to a child pod, so the parent
   * cannot write into what it handed over.
   */
  lockWrite(target: string, { recursive = true }: { recursive?: boolean } = {}): ScopeLock {
    const rule: ResolvedRule = Object.freeze({
      target: resolveTarget(target, this.baseDir),
      permission: 'write',
      recursive,
    });
    this.#locks.add(rule);
    return Object.freeze({ rule, release: () => void this.#locks.delete(rule) });
  }

  /**
   * The allow rules for the model's system prompt, as yoi renders them: every allow rule
   * under `Readable:`, the write rules again under `Writable:`, non-recursive ones marked
   * ` [non-recursive]`; deny rules and locks omitted; no trailing newline.
   */
  summary(): string {
    const line = (r: ResolvedRule) => `  - ${r.target}${r.recursive ? '' : ' [non-recursive]'}`;
    const writable = this.#allow.filter((r) => r.permission === 'write');
    const parts: string[] = [];
    if (this.#allow.length > 0) parts.push('Readable:', ...this.#allow.map(line));
    if (writable.length > 0) parts.push('Writable:', ...writable.map(line));
    return parts.join('\n');
  }

  #permissionAtCanonical(canonical: string): Permission | undefined {
    const permission = this.#rulesPermission(canonical);
    return permission === 'write' && this.#protectedBy(canonical) ? 'read' : permission;
  }

  #protectedBy(canonical: string): ProtectedPath | undefined {
    return this.#protected.find((entry) => protects(entry, canonical));
  }

  /** What the rules and locks grant (the control plane not counted). */
  #rulesPermission(canonical: string): Permission | undefined {
    let granted = 0;
    for (const rule of this.#allow) {
      if (ruleMatches(rule, canonical)) granted = Math.max(granted, PERMISSION_RANK[rule.permission]);
    }
    if (granted === 0) return undefined;
    let cap = Infinity;
    for (const rule of [...this.#deny, ...this.#locks]) {
      if (ruleMatches(rule, canonical)) cap = Math.min(cap, PERMISSION_RANK[rule.permission]);
    }
    const effective = Math.min(granted, cap - 1);
    return effective >= PERMISSION_RANK.write ? 'write' : effective >= PERMISSION_RANK.read ? 'read' : undefined;
  }
}

function resolveRules(rules: readonly ScopeRuleInput[], list: 'allow' | 'deny', baseDir: string): ResolvedRule[] {
  return rules.map((input, i) => {
    const parsed = ScopeRuleInputSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new YoiError(
        'YOI_ERR_CONFIG',
        `scope.${list}[${i}]${issue.path.map((k) => `.${String(k)}`).join('')}: ${issue.message}`,
      );
    }
    const { target, permission, recursive = true, path: absolute } = parsed.data;
    return Object.freeze({ target: resolveTarget(absolute ?? target, baseDir), permission, recursive });
  });
}

/** Canonical target; a target that cannot be canonicalized keeps its lexical absolute form. */
function resolveTarget(target: string, baseDir: string): string {
  return canonicalPath(target, baseDir) ?? path.resolve(baseDir, target);
}
