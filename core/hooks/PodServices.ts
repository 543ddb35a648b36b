import type { AlertLevel } from '../protocol/index.js';
import type { Scope } from '../scope/Scope.js';
import type { ResolvedConfig } from '../config/resolveConfig.js';
import type { FileActivity } from '../tools/FileActivity.js';
import type { PodTree } from '../podtree/PodTree.js';

/**
 * What the running pod offers to plugins inside hooks. Members are added as the pod grows
 * (scope engine, runtime paths); plugins must tolerate absent optional members.
 */
export interface PodServices {
  /** Sends an alert to every client (and the replay buffer); the message names its plugin. */
  alert(level: AlertLevel, message: string): void;
  /**
   * What the pod may read and write. Every file-touching plugin checks paths here and opens
   * the canonical path `check()` returns, verified (`openRegularFile`, `PinnedDir` in core/scope:
   * what was opened must be what was checked). Optional while hosts are being built: use
   * `scopeOf(ctx)` (core/scope), which falls back to the config's scope or the project dir.
   */
  scope?: Scope;
  /** The pod's resolved config (limits, directories, compaction settings). Set by the pod. */
  config?: ResolvedConfig;
  /** Files the pod's tools read or wrote recently (newest first); compaction reads `recent(5)`. */
  files?: FileActivity;
  /**
   * The runtime base directory (ARCHITECTURE §4.1: `$YOI_RUNTIME_DIR`, ...), private to the user.
   * Plugins keep their own runtime state in a folder there whose name is not a valid pod name
   * (starting with `.`), e.g. the write tools' temp-file journal `.write-temps/`. Set by the pod.
   */
  runtimeBase?: string;
  /** The pod's place in the pod tree: scope.lock allocation, spawned pods, parent. Set by the pod. */
  podTree?: PodTree;
}
