import { ISOLATED_HOOKS, createHooks, type HookName, type Hooks } from '../hooks/createHooks.js';
import { PluginError, isPluginError } from '../errors/PluginError.js';
import { YoiError, isYoiError } from '../errors/YoiError.js';
import { interceptHooks, type FullTap, type TapSite } from './interceptHooks.js';
import { wrapTap } from './wrapTap.js';
import { isYoiPlugin, type YoiPlugin } from './YoiPlugin.js';

/** Names of the catalog's keyed hooks (HookMaps): `providers`, `tools`, `resolveSegment`... */
export type HookMapName = {
  [K in HookName]: Hooks[K] extends { for(key: any): unknown } ? K : never;
}[HookName];

/** One applied plugin and the hooks it taps, for `yoi plugins`. */
export interface PluginDescription {
  readonly name: string;
  /** Hook labels in first-tap order: `beforeTurn`, `resolveSegment(paste)`. */
  readonly hooks: readonly string[];
}

/**
 * Owns one pod's hook catalog and the plugins tapping it. Every tap goes through a `register`
 * interceptor that refuses callback-style taps and taps after `start()`, attributes failures
 * to the plugin (`PluginError`), isolates failures on `ISOLATED_HOOKS`, and records who tapped
 * what.
 */
export class PluginHost {
  readonly hooks: Hooks = createHooks();

  /**
   * Receives failures of taps on isolated hooks (and rejections nobody awaits). The pod turns
   * them into alerts; the default prints one line to stderr.
   */
  onTapError: (error: PluginError) => void = (error) => {
    process.stderr.write(`yoi: ${error.message}\n`);
  };

  #started = false;
  /** The plugin whose apply() is running: it owns the taps made meanwhile. */
  #applying: string | undefined;
  readonly #applied: YoiPlugin[] = [];
  /** Tap owner → hook labels it tapped (insertion-ordered, unique). */
  readonly #taps = new Map<string, Set<string>>();
  readonly #keys = new Map<HookName, Set<string>>();

  constructor() {
    interceptHooks(this.hooks, (tap, site) => this.#register(tap, site));
  }

  /** True once `start()` was called: no more taps or plugins. */
  get started(): boolean {
    return this.#started;
  }

  /** The applied plugins, in order. */
  get plugins(): readonly YoiPlugin[] {
    return [...this.#applied];
  }

  /**
   * Applies plugins in order. Refuses a plugin whose name was already applied or whose
   * `dependsOn` names a plugin not applied before it. An error thrown by `apply()` is rethrown
   * naming the plugin; the host is then half-set-up and should be discarded.
   */
  applyPlugins(plugins: readonly YoiPlugin[]): void {
    if (this.#started) {
      throw new YoiError('YOI_ERR_PLUGIN_FROZEN', 'cannot apply plugins after the pod started: list them in the config instead');
    }
    plugins.forEach((plugin, index) => {
      if (!isYoiPlugin(plugin)) {
        throw new YoiError('YOI_ERR_PLUGIN_INVALID', `plugins[${index}]: expected a plugin made with definePlugin()`);
      }
      const { name } = plugin;
      if (this.#applied.some((p) => p.name === name)) {
        throw new YoiError('YOI_ERR_PLUGIN_DUPLICATE', `plugin ${name} is applied twice (plugin names must be unique)`);
      }
      for (const dependency of plugin.dependsOn) {
        if (this.#applied.some((p) => p.name === dependency)) continue;
        const later = plugins.slice(index + 1).some((p) => isYoiPlugin(p) && p.name === dependency);
        throw new YoiError('YOI_ERR_PLUGIN_DEPENDENCY', later
          ? `plugin ${name} depends on ${dependency}, which comes after it: list ${dependency} first`
          : `plugin ${name} depends on ${dependency}, which is not in the plugin list`);
      }
      this.#taps.set(name, this.#taps.get(name) ?? new Set());
      this.#applying = name;
      try {
        plugin.apply(this);
      } catch (error) {
        throw isYoiError(error) || isPluginError(error) ? error : new PluginError(name, 'apply', error);
      } finally {
        this.#applying = undefined;
      }
      this.#applied.push(plugin);
    });
  }

  /** Freezes the plugin set: from now on any tap throws `YOI_ERR_PLUGIN_FROZEN`. */
  start(): void {
    this.#started = true;
  }

  /**
   * Each applied plugin with the hooks it tapped (plugins that tapped nothing included), then
   * any other tapper (a tap made outside a plugin's apply(), named by its tap name).
   */
  describePlugins(): PluginDescription[] {
    const names = [...this.#applied.map((p) => p.name), ...this.#taps.keys()];
    return [...new Set(names)].map((name) => ({ name, hooks: [...(this.#taps.get(name) ?? [])] }));
  }

  /**
   * Keys of a HookMap that have at least one tap, in registration order: the registered
   * providers, tools, segment kinds or pod-event kinds.
   */
  keysOf(hook: HookMapName): string[] {
    return [...(this.#keys.get(hook) ?? [])];
  }

  #register(tap: FullTap, site: TapSite): FullTap {
    const owner = this.#applying ?? tap.name;
    if (this.#started) {
      throw new YoiError('YOI_ERR_PLUGIN_FROZEN',
        `plugin ${owner} tapped ${site.label} after the pod started: taps must be added in a plugin's apply()`);
    }
    if (tap.type === 'async') {
      throw new YoiError('YOI_ERR_PLUGIN_TAP_ASYNC',
        `plugin ${owner} used tapAsync() on ${site.label}: callback-style taps are not supported, use tapPromise()`);
    }
    if (tap.type === 'sync' && tap.fn.constructor.name === 'AsyncFunction') {
      throw new YoiError('YOI_ERR_PLUGIN_TAP_ASYNC',
        `plugin ${owner} passed an async function to tap() on ${site.label}: use tapPromise() on async hooks, a plain function on sync hooks`);
    }
    const labels = this.#taps.get(owner) ?? new Set();
    this.#taps.set(owner, labels.add(site.label));
    if (site.key !== undefined) {
      const keys = this.#keys.get(site.hook) ?? new Set();
      this.#keys.set(site.hook, keys.add(site.key));
    }
    const isolated = ISOLATED_HOOKS.has(site.hook);
    const fn = wrapTap(tap.fn, tap.type, owner, site.label, { isolated, report: (error) => this.#report(error) });
    return { ...tap, fn };
  }

  #report(error: PluginError): void {
    try {
      this.onTapError(error);
    } catch {
      // A broken reporter must not turn an isolated failure into a crash.
      process.stderr.write(`yoi: ${error.message}\n`);
    }
  }
}
