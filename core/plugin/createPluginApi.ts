import { YoiError } from '../errors/YoiError.js';
import type { PluginApi, ProjectInfo, SegmentKindTaps } from './PluginApi.js';
import type { PluginHost } from './PluginHost.js';
import type { SegmentKind } from '../segments/defineSegmentKind.js';
import type { ResolveContext } from '../pipeline/ResolveContext.js';

/**
 * The narrow face of a host that one plugin's `apply()` gets. Every call is attributed to the
 * plugin; after the pod started, provide/use/declarations are refused like taps.
 */
export function createPluginApi(
  host: PluginHost,
  name: string,
  config: unknown,
  project: ProjectInfo,
  started: () => boolean,
): PluginApi {
  const open = (what: string) => {
    if (started())
      throw new YoiError(
        'YOI_ERR_PLUGIN_FROZEN',
        `plugin ${name} called ${what} after the pod started: do it in apply()`,
      );
  };
  return Object.freeze({
    name,
    hooks: host.hooks,
    config,
    project,
    provide(key, value) {
      open('provide()');
      host.services.provide(key, value, name);
    },
    use(key) {
      open('use()');
      host.services.use(key, name);
      return () => host.services.get(key);
    },
    useOptional(key) {
      open('useOptional()');
      host.services.use(key, name, true);
      return () => host.services.find(key);
    },
    segmentKind<Kind extends SegmentKind>(kind: Kind): SegmentKindTaps<Kind> {
      open('segmentKind()');
      host.segmentKinds.declare(kind, name);
      return {
        resolve(fn, options) {
          // The pipeline validated the segment with the kind's schema before any tap runs.
          host.hooks.resolveSegment
            .for(kind.kind)
            .tapPromise({ name, ...options }, (segment, ctx: ResolveContext) => fn(segment as never, ctx));
        },
        complete(fn, options) {
          host.hooks.completeSegment.for(kind.kind).tapPromise({ name, ...options }, fn);
        },
      };
    },
    method(definition) {
      open('method()');
      host.protocol.addMethod(definition as never, name);
    },
    event(definition) {
      open('event()');
      return host.protocol.addEvent(definition, name);
    },
  } satisfies PluginApi);
}
