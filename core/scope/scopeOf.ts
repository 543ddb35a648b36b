import type { PodServices } from '../hooks/PodServices.js';
import { Scope } from './Scope.js';

/** Fallback scopes for hosts that provide none, one per services object (built once). */
const fallbacks = new WeakMap<PodServices, Scope>();

/**
 * The pod's scope: `services.scope` when the pod provides it; otherwise one built from
 * `services.config.scope` (or the default, write access to `projectDir`) and kept for the
 * life of that services object. Lets plugins run under hosts that predate the scope service.
 */
export function scopeOf({ services, projectDir }: { readonly services: PodServices; readonly projectDir: string }): Scope {
  if (services.scope) return services.scope;
  let scope = fallbacks.get(services);
  if (!scope) {
    scope = new Scope(services.config?.scope, projectDir);
    fallbacks.set(services, scope);
  }
  return scope;
}
