import type { AlertLevel } from '../protocol/index.js';
import type { Scope } from '../scope/Scope.js';
import type { ResolvedConfig } from '../config/resolveConfig.js';
import type { FileActivity } from '../tools/FileActivity.js';
import type { ServiceKey } from '../plugin/defineService.js';
import type { RuntimeDir } from '../pod/RuntimeFiles.js';

/** A plugin's entries in the session log (`{"type":"plugin","plugin":…,"data":…}`). */
export interface PluginLog {
  /** Appends an entry (JSON data) to the current session's log. */
  append(plugin: string, data: unknown): void;
  /** The plugin's entries of the session this pod resumed, oldest first (none for a new session); known from `podStart` on. */
  restored(plugin: string): readonly unknown[];
}

/**
 * What the running pod offers to plugins inside hooks: its own services, and those plugins
 * provide to each other (`get(key)`; declare the use in `apply()` with `api.use(key)`).
 */
export interface PodServices {
  /** Sends an alert to every client (and the replay buffer); the message names its plugin. */
  alert(level: AlertLevel, message: string): void;
  /** A line for the operator, said once at start (`yoi pod start` prints it); an alert once the pod runs. */
  note(message: string): void;
  /**
   * What the pod may read and write. Every file-touching plugin checks paths here and opens
   * the canonical path `check()` returns, verified (`openRegularFile`, `PinnedDir` in core/scope:
   * what was opened must be what was checked).
   */
  readonly scope: Scope;
  /** The pod's resolved config (core settings; plugin sections go to each plugin's `api.config`). */
  readonly config: ResolvedConfig;
  /** Files the pod's tools read or wrote recently (newest first); compaction reads `recent(5)`. */
  readonly files: FileActivity;
  /**
   * The pod's runtime directory (socket, base of every pod's directory). Plugins keep their own
   * runtime state in a folder of the base whose name is not a valid pod name (starting with `.`),
   * e.g. the write tools' temp-file journal `.write-temps/`.
   */
  readonly runtime: RuntimeDir;
  /** State plugins keep in the session log, so it survives a restart with `--resume`. */
  readonly pluginLog: PluginLog;
  /** A service some plugin provides; throws `YOI_ERR_PLUGIN_SERVICE` naming it when none does. */
  get<T>(key: ServiceKey<T>): T;
  /** A service some plugin provides, or undefined. */
  find<T>(key: ServiceKey<T>): T | undefined;
}
