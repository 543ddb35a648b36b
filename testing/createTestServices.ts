import path from 'node:path';
import type { PodServices, ResolvedConfig, RuntimeDir, Scope, ServiceKey } from 'yoi';
import { FileActivity, Scope as ScopeClass, YoiConfigSchema, resolveConfig } from './api.js';

export interface TestServicesOptions {
  /** The project directory (the default scope: write access to it). */
  readonly projectDir: string;
  readonly scope?: Scope;
  /** Only the parts of a resolved config a test needs. */
  readonly config?: Partial<ResolvedConfig>;
  /** Services other plugins would provide (`services.get(key)`), by key id. */
  readonly provided?: ReadonlyMap<string, unknown>;
}

/**
 * `PodServices` for calling a plugin's hooks outside a pod: a real scope, a FileActivity, and
 * `alerts` recording every alert and note as `<level>: <message>`.
 */
export function createTestServices(opts: TestServicesOptions): PodServices & { readonly alerts: string[] } {
  const alerts: string[] = [];
  const provided = opts.provided ?? new Map<string, unknown>();
  const runtimeBase = path.join(opts.projectDir, '.yoi-test-run');
  // Every default a pod's resolved config has, then what the test sets.
  const defaults = resolveConfig(YoiConfigSchema.parse({}), {
    cwd: opts.projectDir,
    configPath: null,
    defaultPlugins: [],
    where: '',
  });
  const config = { ...defaults, ...opts.config } as ResolvedConfig;
  const runtime: RuntimeDir = {
    base: runtimeBase,
    dir: path.join(runtimeBase, 'test'),
    socket: path.join(runtimeBase, 'test', 'sock'),
    keep: () => undefined,
  };
  return {
    alerts,
    alert: (level, message) => void alerts.push(`${level}: ${message}`),
    note: (message) => void alerts.push(`note: ${message}`),
    scope: opts.scope ?? new ScopeClass(config.scope, opts.projectDir),
    config,
    files: new FileActivity(),
    runtime,
    get<T>(key: ServiceKey<T>): T {
      if (!provided.has(key.id)) throw new Error(`no plugin provides service ${key.id}`);
      return provided.get(key.id) as T;
    },
    find: <T>(key: ServiceKey<T>) => provided.get(key.id) as T | undefined,
    pluginLog: { append: () => undefined, restored: () => [] },
    // Outside a pod there is nobody to serve: the transport is closed.
    serveClient: (transport) => void transport.destroy(),
  };
}
