import { ISOLATED_HOOKS, REVERSED_HOOKS, createHooks, type HookName, type Hooks } from '../hooks/createHooks.js';
import { PluginError, isPluginError } from '../errors/PluginError.js';
import { YoiError, isYoiError } from '../errors/YoiError.js';
import { SegmentKindRegistry } from '../segments/SegmentKindRegistry.js';
import { createPluginApi } from './createPluginApi.js';
import { interceptHooks, type FullTap, type TapSite } from './interceptHooks.js';
import type { ProjectInfo } from './PluginApi.js';
import { ProtocolExtensions } from './ProtocolExtensions.js';
import { ServiceRegistry } from './ServiceRegistry.js';
import { wrapTap } from './wrapTap.js';
import { isYoiPlugin, type YoiPlugin } from './YoiPlugin.js';

/** Names of the catalog's keyed hooks (HookMaps): `providers`, `tools`, `resolveSegment`... */
export type HookMapName = {
  [K in HookName]: Hooks[K] extends { for(key: any): unknown } ? K : never;
}[HookName];

/** One applied plugin: what it taps, provides and uses, for `yoi plugins`. */
export interface PluginDescription {
  readonly name: string;
  /** Hook labels in first-tap order: `beforeTurn`, `resolveSegment(paste)`. */
  readonly hooks: readonly string[];
  readonly provides: readonly string[];
  readonly uses: readonly string[];
  /** Segment kinds it declares, with their sigils: `file_ref (@)`. */
  readonly segmentKinds: readonly string[];
  /** Protocol methods and events it adds. */
  readonly protocol: readonly string[];
  /** The config key it owns. */
  readonly configKey?: string;
}

export interface ApplyOptions {
  /** Each plugin's parsed config section, by plugin name (from `resolveConfig`). */
  readonly sections?: ReadonlyMap<string, unknown>;
  readonly project?: ProjectInfo;
}

/**
 * Owns one pod's hook catalog, the plugins tapping it, and what they share (services, segment
 * kinds, protocol extensions). Plugins never see the host: each gets a `PluginApi`. Every tap
 * goes through a `register` interceptor that refuses callback-style taps and taps after
 * `start()`, attributes failures to the plugin (`PluginError`), isolates failures on
 * `ISOLATED_HOOKS`, runs `REVERSED_HOOKS` taps in reverse order of apply, and records who tapped what.
 */
export class PluginHost {
  readonly hooks: Hooks = createHooks();
  readonly services = new ServiceRegistry();
  readonly segmentKinds = new SegmentKindRegistry();
  readonly protocol = new ProtocolExtensions();

  /** Receives failures of taps on isolated hooks. The pod turns them into alerts. */
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
  /** Per reversed hook: tap names so far (each new tap goes before them all). */
  readonly #reversed = new Map<string, string[]>();

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
   * Applies plugins in order, each through its own `PluginApi` (with its config section).
   * Refuses a plugin whose name was already applied or whose `dependsOn` names a plugin not
   * applied before it. An error thrown by `apply()` is rethrown naming the plugin; the host is
   * then half-set-up and should be discarded.
   */
  applyPlugins(plugins: readonly YoiPlugin[], options: ApplyOptions = {}): void {
    if (this.#started) {
      throw new YoiError(
        'YOI_ERR_PLUGIN_FROZEN',
        'cannot apply plugins after the pod started: list them in the config instead',
      );
    }
    const project = options.project ?? { cwd: process.cwd(), projectDir: process.cwd(), configPath: null };
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
        throw new YoiError(
          'YOI_ERR_PLUGIN_DEPENDENCY',
          later
            ? `plugin ${name} depends on ${dependency}, which comes after it: list ${dependency} first`
            : `plugin ${name} depends on ${dependency}, which is not in the plugin list`,
        );
      }
      const section = sectionOf(plugin, options.sections);
      this.#taps.set(name, this.#taps.get(name) ?? new Set());
      this.#applying = name;
      try {
        plugin.apply(createPluginApi(this, name, section, project, () => this.#started));
      } catch (error) {
        throw isYoiError(error) || isPluginError(error) ? error : new PluginError(name, 'apply', error);
      } finally {
        this.#applying = undefined;
      }
      this.#applied.push(plugin);
    });
  }

  /**
   * Freezes the plugin set (from now on any tap throws `YOI_ERR_PLUGIN_FROZEN`) after checking
   * that every service a plugin uses is provided.
   */
  start(): void {
    this.services.check();
    this.#started = true;
  }

  /**
   * Each applied plugin with what it tapped, provides and uses (plugins that tapped nothing
   * included), then any other tapper (a tap made outside a plugin's apply()).
   */
  describePlugins(): PluginDescription[] {
    const names = [...this.#applied.map((p) => p.name), ...this.#taps.keys()];
    const { provided, used } = this.services.describe();
    return [...new Set(names)].map((name) => {
      const configKey = this.#applied.find((p) => p.name === name)?.config?.key;
      return {
        name,
        hooks: [...(this.#taps.get(name) ?? [])],
        provides: provided.get(name) ?? [],
        uses: used.get(name) ?? [],
        segmentKinds: this.keysOf('resolveSegment')
          .filter((k) => this.segmentKinds.pluginOf(k) === name)
          .map((k) => {
            const sigil = this.segmentKinds.get(k)?.sigil;
            return sigil ? `${k} (${sigil})` : k;
          }),
        protocol: [
          ...[...this.protocol.methods].filter(([, m]) => m.plugin === name).map(([n]) => `method ${n}`),
          ...[...this.protocol.events].filter(([, e]) => e.plugin === name).map(([n]) => `event ${n}`),
        ],
        ...(configKey ? { configKey } : {}),
      };
    });
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
      throw new YoiError(
        'YOI_ERR_PLUGIN_FROZEN',
        `plugin ${owner} tapped ${site.label} after the pod started: taps must be added in a plugin's apply()`,
      );
    }
    if (tap.type === 'async') {
      throw new YoiError(
        'YOI_ERR_PLUGIN_TAP_ASYNC',
        `plugin ${owner} used tapAsync() on ${site.label}: callback-style taps are not supported, use tapPromise()`,
      );
    }
    if (tap.type === 'sync' && tap.fn.constructor.name === 'AsyncFunction') {
      throw new YoiError(
        'YOI_ERR_PLUGIN_TAP_ASYNC',
        `plugin ${owner} passed an async function to tap() on ${site.label}: use tapPromise() on async hooks, a plain function on sync hooks`,
      );
    }
    const labels = this.#taps.get(owner) ?? new Set();
    this.#taps.set(owner, labels.add(site.label));
    if (site.key !== undefined) {
      const keys = this.#keys.get(site.hook) ?? new Set();
      this.#keys.set(site.hook, keys.add(site.key));
    }
    const isolated = ISOLATED_HOOKS.has(site.hook);
    const fn = wrapTap(tap.fn, tap.type, owner, site.label, { isolated, report: (error) => this.#report(error) });
    if (!REVERSED_HOOKS.has(site.hook) || tap.before !== undefined || tap.stage !== undefined) return { ...tap, fn };
    // Teardown runs in reverse order of apply (children before parents): before every earlier tap.
    const earlier = this.#reversed.get(site.label) ?? [];
    this.#reversed.set(site.label, [...earlier, tap.name]);
    return { ...tap, fn, ...(earlier.length > 0 ? { before: [...earlier] } : {}) };
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

/** A plugin's parsed section: from the config, else its schema's defaults. */
function sectionOf(plugin: YoiPlugin, sections: ReadonlyMap<string, unknown> | undefined): unknown {
  if (!plugin.config) return undefined;
  if (sections?.has(plugin.name)) return sections.get(plugin.name);
  const parsed = plugin.config.schema.safeParse(undefined);
  if (!parsed.success) {
    throw new YoiError(
      'YOI_ERR_CONFIG',
      `${plugin.config.key}: required by plugin ${plugin.name} (add a \`${plugin.config.key}\` section to the config)`,
    );
  }
  return parsed.data;
}
