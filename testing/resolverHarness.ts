import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// Types come from 'yoi' (what a plugin package imports), so yoi/testing's API speaks yoi's types.
import type {
  CompleteContext,
  HookName,
  Hooks,
  PodServices,
  Resolution,
  ResolveContext,
  Scope,
  SegmentInput,
  YoiPlugin,
} from 'yoi';
import { createTestServices } from './createTestServices.js';
import { PluginHost, parseSections, schemaWithSections } from './api.js';

/**
 * Helpers to call a plugin's hooks exactly as a pod does, without a pod: a started host, the
 * contexts the pod passes, and the calls.
 */

/** What the helpers use of a started host: its hooks, and the keys of a HookMap that are tapped. */
export interface TestHost {
  readonly hooks: Hooks;
  /** The tapped keys of a HookMap hook (`resolveSegment`, `tools`, ...), in registration order. */
  keysOf(hook: HookName): string[];
}

/** A started host with `plugins` applied, as a pod builds it. */
export function hostWith(...plugins: YoiPlugin[]): TestHost {
  return hostWithConfig({}, ...plugins);
}

/** Like `hostWith`, with the plugins' config sections taken from `config` (a config file's contents). */
export function hostWithConfig(config: Record<string, unknown>, ...plugins: YoiPlugin[]): TestHost {
  const { claims } = schemaWithSections(plugins, 'config: ');
  const host = new PluginHost();
  host.applyPlugins(plugins, { sections: parseSections(config, claims, 'config: ', []) });
  host.start();
  return host;
}

export interface ContextOptions {
  readonly projectDir: string;
  /** Default: `projectDir`. */
  readonly cwd?: string;
  readonly scope?: Scope;
  /** Passed as `services.config` (only the parts a test needs). */
  readonly config?: unknown;
  readonly signal?: AbortSignal;
}

/** Services recording the alerts sent. */
export function makeServices({
  scope,
  config,
  projectDir,
}: Pick<ContextOptions, 'scope' | 'config' | 'projectDir'>): PodServices & { alerts: string[] } {
  return createTestServices({
    projectDir,
    ...(scope ? { scope } : {}),
    ...(config ? { config: config as never } : {}),
  });
}

/** A `resolveSegment` context as the pod makes it. */
export function resolveContext(opts: ContextOptions, services = makeServices(opts)): ResolveContext {
  return {
    signal: opts.signal ?? new AbortController().signal,
    podName: 'test',
    cwd: opts.cwd ?? opts.projectDir,
    projectDir: opts.projectDir,
    index: 0,
    input: [],
    services,
    launch: {},
  };
}

/** A `completeSegment` context as the pod makes it for `list_completions`. */
export function completeContext(
  opts: ContextOptions & { prefix: string; limit?: number },
  services = makeServices(opts),
): CompleteContext {
  return {
    signal: opts.signal ?? new AbortController().signal,
    podName: 'test',
    cwd: opts.cwd ?? opts.projectDir,
    projectDir: opts.projectDir,
    services,
    launch: {},
    prefix: opts.prefix,
    limit: opts.limit ?? 100,
  };
}

/** Calls the hook exactly as the pod does: `resolveSegment.for(kind).promise(payload, ctx)`. */
export function resolveWith(
  host: TestHost,
  kind: string,
  segment: unknown,
  ctx: ResolveContext,
): Promise<Resolution | undefined> {
  return host.hooks.resolveSegment.for(kind).promise(segment as SegmentInput, ctx);
}

/** Calls `completeSegment.for(kind)` as the pod does for `list_completions`. */
export function completeWith(host: TestHost, kind: string, ctx: CompleteContext): Promise<string[]> {
  return host.hooks.completeSegment.for(kind).promise([], ctx);
}

/** A canonical temp directory, removed by the returned function. */
export function tempDir(prefix = 'yoi-res-'): { dir: string; remove(): void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Writes files (relative path → content) under `dir`, creating folders. */
export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
}

/** Rejects when `promise` takes longer than `ms` (a hang must fail the test, not time it out). */
export function within<T>(ms: number, promise: Promise<T>, what = 'the call'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
