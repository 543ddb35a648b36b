import type { z } from 'zod';
import type { Hooks } from '../hooks/createHooks.js';
import type { CompleteContext } from '../hooks/HookTypes.js';
import type { Resolution } from '../pipeline/Resolution.js';
import type { ResolveContext } from '../pipeline/ResolveContext.js';
import type { SegmentKind, SegmentOf } from '../segments/defineSegmentKind.js';
import type { ServiceKey } from './defineService.js';
import type { EventChannel, EventDefinition, MethodDefinition } from './ProtocolExtensions.js';

/** Where the pod will run, known when plugins are applied. */
export interface ProjectInfo {
  /** The pod's working directory. */
  readonly cwd: string;
  /** The config file's directory (the root of `.yoi/`), or the cwd without a config file. */
  readonly projectDir: string;
  /** The config file, or null when none was found. */
  readonly configPath: string | null;
}

/** Typed taps for one declared segment kind (see `api.segmentKind`). */
export interface SegmentKindTaps<Kind extends SegmentKind> {
  /** Taps `resolveSegment.for(kind)`: the segment arrives validated and typed. */
  resolve(
    fn: (segment: SegmentOf<Kind>, ctx: ResolveContext) => Promise<Resolution | undefined>,
    options?: { stage?: number },
  ): void;
  /** Taps `completeSegment.for(kind)` (waterfall: return the items with yours added). */
  complete(fn: (items: string[], ctx: CompleteContext) => Promise<string[]>, options?: { stage?: number }): void;
}

/**
 * What a plugin's `apply(api, options)` receives: the hooks to tap and the means to share with
 * other plugins — not the host. Everything here is for use inside `apply()`; calls after the
 * pod started are refused.
 */
export interface PluginApi<Config = unknown> {
  /** This plugin's name (use it as the tap name). */
  readonly name: string;
  /** The pod's hook catalog. Tap with `tap` (sync hooks) or `tapPromise` (async hooks). */
  readonly hooks: Hooks;
  /** This plugin's config section, validated by its `config.schema` (undefined without one). */
  readonly config: Config;
  readonly project: ProjectInfo;
  /** Offers `value` to other plugins under `key` (one provider per key). */
  provide<T>(key: ServiceKey<T>, value: T): void;
  /** Declares that this plugin needs `key`; the pod refuses to start if nobody provides it. Call the getter inside hooks. */
  use<T>(key: ServiceKey<T>): () => T;
  /** Like `use`, for a service this plugin can do without. */
  useOptional<T>(key: ServiceKey<T>): () => T | undefined;
  /** Declares a segment kind (its schema validates every such segment; clients learn its sigil). */
  segmentKind<Kind extends SegmentKind>(kind: Kind): SegmentKindTaps<Kind>;
  /** Adds a v2 method to the protocol (`{"method":"<name>","params":…}`). */
  method<S extends z.ZodType | null>(definition: MethodDefinition<S>): void;
  /** Adds a v2 event to the protocol; returns what emits it. */
  event<S extends z.ZodType>(definition: EventDefinition<S>): EventChannel<z.output<S>>;
}
